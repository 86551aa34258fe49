import { loadNote } from "../live/proc.js";
import { table } from "../live/report.js";
import { fmt, num } from "../live/stats.js";
import type { Figures } from "./measure.js";

/** The bars: messages pages p99 < 50 ms; a device-day of get_history p99 < 150 ms and at most 3× the raw query. */
export const BARS = { messagesP99Ms: 50, dayP99Ms: 150, dayVsRaw: 3 };

export interface HistoryReport {
  seed: { rows: number; devices: number; seconds?: number; parts: number; dayRows: number; monthRows: number; deepOffset: number };
  /** Every measure's figures in the order measured: raw ones named raw_*, each endpoint after its raw query. */
  figures: Figures[];
}

const byName = (fs: readonly Figures[], name: string) => fs.find((f) => f.name === name);

/** The summary table, the bars, and the name=value lines (figures not measured are left out). */
export function report(r: HistoryReport): void {
  const all = r.figures;
  console.log(`\nmedian of ${all[0]?.rounds.length ?? 0} rounds' p50 and p99 (rounds' p99s after "rounds"); CPU per operation is the process's, where the app and the raw queries' engine both run`);
  table([
    ["measure", "p50 ms", "p99 ms", "CPU ms/op", "KB", "rounds"],
    ...all.map((f) => [f.name, fmt(f.p50, 1), fmt(f.p99, 1), fmt(f.cpuMsPerOp, 2), fmt(f.bytes / 1024, 1), f.rounds.map((s) => fmt(s.summary.p99, 1)).join(" / ")]),
  ]);
  console.log(`\nmachine load average at the end ${loadNote()}; other work on the machine raises every latency`);

  const lines: [string, number, number][] = [
    ["seed_positions", r.seed.rows, 0],
    ["seed_devices", r.seed.devices, 0],
    ...(r.seed.seconds === undefined ? [] : ([["seed_s", r.seed.seconds, 1], ["seed_positions_per_s", r.seed.rows / r.seed.seconds, 0]] as [string, number, number][])),
    ["seed_parts", r.seed.parts, 0],
    ["day_positions", r.seed.dayRows, 0],
    ["month_positions", r.seed.monthRows, 0],
    ["deep_page_offset", r.seed.deepOffset, 0],
  ];
  for (const f of all) lines.push([`${f.name}_p50_ms`, f.p50, 1], [`${f.name}_p99_ms`, f.p99, 1], [`${f.name}_cpu_ms_per_op`, f.cpuMsPerOp, 2]);

  const page1 = byName(all, "history_messages_page1");
  const deep = byName(all, "history_messages_deep");
  const day = byName(all, "history_day");
  const rawDay = byName(all, "raw_day");
  if (page1 && deep && day && rawDay) {
    const messagesP99 = Math.max(page1.p99, deep.p99);
    const ratio = day.p99 / rawDay.p99;
    lines.push(["history_day_vs_raw_p50_ratio", day.p50 / rawDay.p50, 2]);
    const bars = [
      { name: "history_messages_p99_ms", value: messagesP99, met: messagesP99 < BARS.messagesP99Ms, bar: `< ${BARS.messagesP99Ms}` },
      { name: "history_day_p99_ms", value: day.p99, met: day.p99 < BARS.dayP99Ms, bar: `< ${BARS.dayP99Ms}` },
      { name: "history_day_vs_raw_ratio", value: ratio, met: ratio <= BARS.dayVsRaw, bar: `<= ${BARS.dayVsRaw}` },
    ];
    console.log("");
    for (const b of bars) console.log(`bar ${b.name} ${b.bar}: ${fmt(b.value, b.name.endsWith("ratio") ? 2 : 1)} ${b.met ? "met" : "MISSED"}`);
    console.log("");
    // The bars' figures last, once (history_day_p99_ms is also a measure's own line).
    for (const [k, v, d] of lines) if (!bars.some((b) => b.name === k)) console.log(`${k}=${num(v, d)}`);
    for (const b of bars) console.log(`${b.name}=${num(b.value, b.name.endsWith("ratio") ? 2 : 1)}`);
    console.log(`bars_met=${bars.filter((b) => b.met).length}/${bars.length}`);
    return;
  }
  console.log("\nthe endpoint measures did not run, so no bar is checked");
  console.log("");
  for (const [k, v, d] of lines) if (Number.isFinite(v)) console.log(`${k}=${num(v, d)}`);
}
