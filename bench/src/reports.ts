/**
 * `pnpm bench:reports`: reports at the scale of a fleet's week. Seeds 100 devices with 7 days
 * of positions every 10 s (≈ 6M rows, the history bench's track model written straight into
 * chDB), starts the all-in-one app on that directory in this process, and measures, in each
 * round:
 *
 *   raw:     the raw ClickHouse aggregate of general information's figures over the same rows
 *   engine:  the history store's trackTotals over the same devices and period: the engine's cut
 *            of every track that general information is made of (not a bar; it shows what of
 *            the report is the engine's work and what the app's)
 *   general: general information (type 1, html) of the 100 devices over the period, end to
 *            end: generate_report, then the download of its link
 *   drives:  drives and stops (type 3) as a spreadsheet (xls), end to end likewise
 *
 * Ends with name=value lines; exits 0 whether or not the bars are met. See bench/README.md.
 */
import { createChdbHistory } from "@fleet/history";
import { cleanup, defer, log, runBench, sleep } from "./live/harness.js";
import { loadNote, ownCpuMs } from "./live/proc.js";
import { fmt, median } from "./live/stats.js";
import { startAppOn } from "./history/endpoints.js";
import { MIN_MOVING_SPEED } from "./history/seed.js";
import { prepareSeeded } from "./history/seeded.js";
import { openRawReports } from "./reports/raw.js";
import { historySeed, loadReportsSettings } from "./reports/settings.js";

const BARS = { generalVsRaw: 2, drivesXlsS: 10 };
const DAY_MS = 86_400_000;
const settings = loadReportsSettings();

interface Figure {
  s: number;
  cpuS: number;
  bytes: number;
}

/** Times one run of `work`: wall seconds, this process's CPU seconds (the app and chDB run in it), and what it answered. */
async function timed(work: () => Promise<number>): Promise<Figure> {
  const cpu0 = ownCpuMs();
  const t0 = performance.now();
  const bytes = await work();
  return { s: (performance.now() - t0) / 1000, cpuS: (ownCpuMs() - cpu0) / 1000, bytes };
}

async function main() {
  log(`bench:reports: ${settings.BENCH_REPORTS_DEVICES} devices × ${settings.BENCH_REPORTS_DAYS} days every ${settings.BENCH_REPORTS_INTERVAL_S} s, ${settings.BENCH_REPORTS_ROUNDS} rounds ${loadNote()}`);
  const seeded = await prepareSeeded(historySeed(settings), log);
  const { owner, layout } = seeded;
  // Every device's week lies in the month before the layout's end: the report covers that month.
  const range = { fromMs: layout.end - 30 * DAY_MS, toMs: layout.end - 1 };
  const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  log("starting the all-in-one app on the seeded directory, in this process");
  const app = await startAppOn(seeded.dataDir);
  const stopApp = defer("stop the app", () => app.close());
  const raw = openRawReports(seeded.historyPath);
  // The same directory as the app's store: chDB shares one engine per directory in a process.
  const history = createChdbHistory({ path: seeded.historyPath });
  const cut = { devices: owner.deviceIds.map((deviceId) => ({ deviceId, minMovingSpeedKmh: MIN_MOVING_SPEED, hasEngineSensor: false })), ...range, minStopMs: 5 * 60_000, speedLimitKmh: 90 };
  const engine = async () => (await history.trackTotals(cut)).size;
  const auth = `lang=en&user_api_hash=${encodeURIComponent(owner.apiHash)}`;

  /** generate_report, then its link until the file comes (202 while it is being made); the file's bytes. */
  async function report(type: number, format: string): Promise<number> {
    const body = { title: `Bench ${type}`, type, format, devices: owner.deviceIds, date_from: date(range.fromMs), date_to: date(range.toMs), stops: 5, speed_limit: 90 };
    const answer = await fetch(`${app.url}/api/generate_report?${auth}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const { url } = (await answer.json()) as { url?: string };
    if (answer.status !== 200 || !url) throw new Error(`generate_report type ${type} ${format}: HTTP ${answer.status}`);
    for (;;) {
      const file = await fetch(url);
      if (file.status === 200) return (await file.arrayBuffer()).byteLength;
      if (file.status !== 202) throw new Error(`download of type ${type} ${format}: HTTP ${file.status}: ${(await file.text()).slice(0, 300)}`);
      await sleep(100);
    }
  }

  const rounds: { raw: Figure; engine: Figure; general: Figure; drives: Figure }[] = [];
  try {
    log(`warming up: one of each ${loadNote()}`);
    await raw.general(owner.deviceIds, range);
    await engine();
    await report(1, "html");
    for (let r = 1; r <= settings.BENCH_REPORTS_ROUNDS; r++) {
      const rawFigure = await timed(() => raw.general(owner.deviceIds, range));
      const engineFigure = await timed(engine);
      const general = await timed(() => report(1, "html"));
      const drives = await timed(() => report(3, "xls"));
      rounds.push({ raw: rawFigure, engine: engineFigure, general, drives });
      log(`round ${r}: raw aggregate ${fmt(rawFigure.s, 3)} s; the engine's cut ${fmt(engineFigure.s, 3)} s; general information ${fmt(general.s, 2)} s (${fmt(general.cpuS, 2)} s CPU, ${fmt(general.bytes)} bytes); drives and stops xls ${fmt(drives.s, 2)} s (${fmt(drives.cpuS, 2)} s CPU, ${fmt(drives.bytes)} bytes) ${loadNote()}`);
    }
  } finally {
    await raw.close();
    await history.close();
    await stopApp();
  }
  await cleanup();

  const ratio = median(rounds.map((r) => r.general.s / r.raw.s));
  const drivesS = median(rounds.map((r) => r.drives.s));
  log(`rows: ${fmt(seeded.rows)} positions of ${fmt(owner.deviceIds.length)} devices`);
  log(`general information: ${fmt(median(rounds.map((r) => r.general.s)), 2)} s against the raw aggregate's ${fmt(median(rounds.map((r) => r.raw.s)), 3)} s: ${ratio.toFixed(1)} ×; bar ≤ ${BARS.generalVsRaw} ×: ${ratio <= BARS.generalVsRaw ? "met" : "MISSED"}`);
  log(`of which the engine's cut of the tracks (trackTotals, bare): ${fmt(median(rounds.map((r) => r.engine.s)), 3)} s`);
  log(`drives and stops as xls: ${fmt(drivesS, 2)} s end to end; bar < ${BARS.drivesXlsS} s: ${drivesS < BARS.drivesXlsS ? "met" : "MISSED"}`);
  console.log(`report_general_s=${median(rounds.map((r) => r.general.s)).toFixed(3)}`);
  console.log(`report_general_cpu_s=${median(rounds.map((r) => r.general.cpuS)).toFixed(3)}`);
  console.log(`report_raw_general_s=${median(rounds.map((r) => r.raw.s)).toFixed(3)}`);
  console.log(`report_general_engine_s=${median(rounds.map((r) => r.engine.s)).toFixed(3)}`);
  console.log(`report_general_vs_raw_ratio=${ratio.toFixed(2)}`);
  console.log(`report_drives_xls_s=${drivesS.toFixed(3)}`);
  console.log(`report_drives_xls_cpu_s=${median(rounds.map((r) => r.drives.cpuS)).toFixed(3)}`);
}

await runBench(main);
