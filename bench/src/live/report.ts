import type { LoadResult } from "./load.js";
import { loadNote } from "./proc.js";
import type { QuietRound, Series } from "./quiet.js";
import { fmt, median, num } from "./stats.js";
import { storeLabel, type StoreKind } from "./stores.js";

export interface StoreResult {
  kind: StoreKind;
  rounds: QuietRound[];
  load?: LoadResult;
}

/** The issue's bars, on Postgres + Redis. */
export const BARS = { emptyP99Ms: 5, changedP99Ms: 50, fullP99Ms: 300, insertToVisibleP99Ms: 500 };

/** A store's figures: each quiet one the median of its rounds'. */
function figures(r: StoreResult) {
  const med = (pick: (q: QuietRound) => number) => median(r.rounds.map(pick));
  const ratio = (real: (q: QuietRound) => Series, bare: (q: QuietRound) => Series) => med((q) => real(q).summary.p99 / bare(q).summary.p99);
  const l = r.load;
  return {
    latest_p99_ms: med((q) => q.changed.summary.p99),
    latest_p50_ms: med((q) => q.changed.summary.p50),
    latest_empty_p99_ms: med((q) => q.empty.summary.p99),
    latest_empty_p50_ms: med((q) => q.empty.summary.p50),
    devices_full_p99_ms: med((q) => q.full.summary.p99),
    devices_full_p50_ms: med((q) => q.full.summary.p50),
    insert_to_visible_p99_ms: l?.insertToVisible.p99 ?? NaN,
    insert_to_visible_p50_ms: l?.insertToVisible.p50 ?? NaN,
    bare_full_p99_ms: med((q) => q.bareFull.summary.p99),
    bare_latest_p99_ms: med((q) => q.bareChanged.summary.p99),
    bare_latest_empty_p99_ms: med((q) => q.bareEmpty.summary.p99),
    full_vs_bare_ratio: ratio((q) => q.full, (q) => q.bareFull),
    latest_vs_bare_ratio: ratio((q) => q.changed, (q) => q.bareChanged),
    latest_empty_vs_bare_ratio: ratio((q) => q.empty, (q) => q.bareEmpty),
    positions_per_s: l?.positionsPerS ?? NaN,
    server_cpu_ms_per_poll: med((q) => q.changed.cpuMsPerOp),
    server_cpu_ms_per_empty_poll: med((q) => q.empty.cpuMsPerOp),
    server_cpu_ms_per_full: med((q) => q.full.cpuMsPerOp),
    load_server_cpu_ms_per_s: l?.serverCpuMsPerS ?? NaN,
    load_postgres_cpu_ms_per_s: l?.serviceCpuMsPerS?.postgres ?? NaN,
    load_redis_cpu_ms_per_s: l?.serviceCpuMsPerS?.redis ?? NaN,
    pollers_p99_ms: l?.polls.p99 ?? NaN,
    poll_errors: l ? l.pollErrors : NaN,
  };
}
type Figures = ReturnType<typeof figures>;

const digits: Partial<Record<keyof Figures, number>> = { full_vs_bare_ratio: 2, latest_vs_bare_ratio: 2, latest_empty_vs_bare_ratio: 2, positions_per_s: 0, poll_errors: 0, server_cpu_ms_per_poll: 2, server_cpu_ms_per_empty_poll: 3, server_cpu_ms_per_full: 1 };

/** Rows as aligned columns, the first a header underlined. */
export function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((c, j) => c.padEnd(widths[j]!)).join("  "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
}

const rounds = (r: StoreResult, pick: (q: QuietRound) => number, d = 1) => r.rounds.map((q) => fmt(pick(q), d)).join(" / ");

function storeTable(r: StoreResult): void {
  const f = figures(r);
  console.log(`\n${storeLabel(r.kind)}: quiet figures are the median of ${r.rounds.length} rounds' p99 (rounds' p99s after "rounds")`);
  const q0 = r.rounds[0];
  // Postgres's and Redis's CPU per request, median of the rounds, where the app uses them.
  const services = (pick: (q: QuietRound) => Series) =>
    q0 && pick(q0).serviceCpuMsPerOp
      ? `; Postgres ${fmt(median(r.rounds.map((q) => pick(q).serviceCpuMsPerOp?.postgres ?? NaN)), 2)}, Redis ${fmt(median(r.rounds.map((q) => pick(q).serviceCpuMsPerOp?.redis ?? NaN)), 2)} ms/req`
      : "";
  // The load's rows have no bare baseline: their cells stay empty.
  const cell = (v: number, d: number) => (Number.isNaN(v) ? "" : fmt(v, d));
  const row = (what: string, p50: number, p99: number, bare: number, ratio: number, cpu: string, note: string) => [what, fmt(p50, 1), fmt(p99, 1), cell(bare, 1), cell(ratio, 2), cpu, note];
  table([
    ["measure", "p50 ms", "p99 ms", "bare p99", "ratio", "server CPU", "rounds / note"],
    row("latest, 0 changed", f.latest_empty_p50_ms, f.latest_empty_p99_ms, f.bare_latest_empty_p99_ms, f.latest_empty_vs_bare_ratio, `${fmt(f.server_cpu_ms_per_empty_poll, 3)} ms/req`, `rounds ${rounds(r, (q) => q.empty.summary.p99)}; n=${q0?.empty.summary.n ?? 0}/round${services((q) => q.empty)}`),
    row(`latest, ${fmt(q0?.changedItems ?? NaN)} changed`, f.latest_p50_ms, f.latest_p99_ms, f.bare_latest_p99_ms, f.latest_vs_bare_ratio, `${fmt(f.server_cpu_ms_per_poll, 2)} ms/req`, `rounds ${rounds(r, (q) => q.changed.summary.p99)}; ${fmt((q0?.changed.bytes ?? NaN) / 1024)} KB; visible after ${rounds(r, (q) => q.changedVisibleMs, 0)} ms${services((q) => q.changed)}`),
    row(`get_devices, ${fmt(q0?.fullItems ?? NaN)}`, f.devices_full_p50_ms, f.devices_full_p99_ms, f.bare_full_p99_ms, f.full_vs_bare_ratio, `${fmt(f.server_cpu_ms_per_full, 1)} ms/req`, `rounds ${rounds(r, (q) => q.full.summary.p99)}; ${fmt((q0?.full.bytes ?? NaN) / 1024 / 1024, 1)} MB; n=${q0?.full.summary.n ?? 0}/round${services((q) => q.full)}`),
    ...(r.load
      ? [
          row("insert → visible", r.load.insertToVisible.p50, r.load.insertToVisible.p99, NaN, NaN, "", `${r.load.insertToVisible.n} probes, ${r.load.probeTimeouts} timed out, ${r.load.probeErrors} errors; max ${fmt(r.load.insertToVisible.max)} ms`),
          row("clients' polls", r.load.polls.p50, r.load.polls.p99, NaN, NaN, "", `${fmt(r.load.polls.n)} polls, ${r.load.pollErrors} errors`),
          [
            "load",
            "",
            "",
            "",
            "",
            `${fmt(r.load.serverCpuMsPerS)} ms/s`,
            `${fmt(r.load.positionsPerS)} pos/s accepted of ${fmt(r.load.sentPerS)} sent, ${fmt(r.load.skipped)} skipped, ${r.load.failedInserts} failed inserts; bench ${fmt(r.load.benchCpuMsPerS)} ms CPU/s${r.load.serviceCpuMsPerS ? `, Postgres ${fmt(r.load.serviceCpuMsPerS.postgres)} ms/s, Redis ${fmt(r.load.serviceCpuMsPerS.redis)} ms/s` : ""}`,
          ],
        ]
      : []),
  ]);
  const problems = [
    ...r.rounds.flatMap((q, i) =>
      (["empty", "changed", "full"] as const).filter((k) => q[k].failures + q[k].unexpected > 0).map((k) => `round ${i + 1} ${k}: ${q[k].failures} failed, ${q[k].unexpected} unexpected (${q[k].note})`),
    ),
    ...(r.load?.insertFailure ? [`insert: ${r.load.insertFailure}`] : []),
    ...(r.load?.pollError ? [`poll: ${r.load.pollError}`] : []),
    ...(r.load?.probeError ? [`probe: ${r.load.probeError}`] : []),
  ];
  for (const p of problems) console.log(`  ! ${p}`);
}

/** The summary tables, which bars were met, and the name=value lines (Postgres + Redis unprefixed). */
export function report(results: StoreResult[]): void {
  for (const r of results) storeTable(r);
  const pg = results.find((r) => r.kind === "postgres");
  const f = pg ? figures(pg) : undefined;
  const bars = [
    { name: "latest_empty_p99_ms", value: f?.latest_empty_p99_ms ?? NaN, bar: BARS.emptyP99Ms },
    { name: "latest_p99_ms", value: f?.latest_p99_ms ?? NaN, bar: BARS.changedP99Ms },
    { name: "devices_full_p99_ms", value: f?.devices_full_p99_ms ?? NaN, bar: BARS.fullP99Ms },
    { name: "insert_to_visible_p99_ms", value: f?.insert_to_visible_p99_ms ?? NaN, bar: BARS.insertToVisibleP99Ms },
  ];
  const met = bars.filter((b) => b.value < b.bar);
  console.log("");
  console.log(`machine load average at the end ${loadNote()}; other work on the machine raises every latency`);
  if (!pg) console.log("bars: Postgres + Redis was not measured (BENCH_LIVE_STORES), so no bar counts as met");
  for (const b of bars) console.log(`bar ${b.name} < ${b.bar}: ${fmt(b.value, 1)} ${b.value < b.bar ? "met" : "MISSED"}`);
  console.log("");
  const line = (prefix: string, k: string, v: number) => console.log(`${prefix}${k}=${num(v, digits[k as keyof Figures] ?? 1)}`);
  // A figure the run did not measure (Postgres's CPU on the embedded stores) is not printed.
  const measured = (prefix: string, k: string, v: number) => Number.isNaN(v) || line(prefix, k, v);
  const embedded = results.find((r) => r.kind === "embedded");
  if (embedded) for (const [k, v] of Object.entries(figures(embedded))) measured("embedded_", k, v);
  // Postgres + Redis last, unprefixed, the four figures with bars at the very end.
  if (f) for (const [k, v] of Object.entries(f)) if (!bars.some((b) => b.name === k)) measured("", k, v);
  for (const b of bars) line("", b.name, b.value);
  console.log(`bars_met=${met.length}/${bars.length}`);
}
