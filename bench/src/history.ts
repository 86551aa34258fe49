/**
 * `pnpm bench:history`: history reads at the scale the store was chosen for. Seeds chDB with
 * 10M positions over 1,000 devices from the track model (@fleet/tracks), written straight to
 * the store, then measures, each beside the raw ClickHouse query that fetches the same rows:
 *
 *   raw:       a device-day (≈ 8,640 positions at 10 s); a page of 50 at the start of a
 *              month-long range and one deep in it; the range's count
 *   endpoints: get_history_messages page 1 and the deep page; get_history for the device-day,
 *              through the all-in-one app started in this process on the seeded directory,
 *              asked by an HTTP client on a worker thread
 *
 * Ends with name=value lines; exits 0 whether or not the bars are met. See bench/README.md.
 */
import { cleanup, defer, elapsedS, log, runBench } from "./live/harness.js";
import { loadNote, ownCpuMs } from "./live/proc.js";
import { fmt } from "./live/stats.js";
import { ThreadClient } from "./history/client-thread.js";
import { endpointPaths, startAppOn } from "./history/endpoints.js";
import { measureRounds, type Figures, type Measure } from "./history/measure.js";
import { openRawHistory } from "./history/raw.js";
import { report } from "./history/report.js";
import { prepareSeeded } from "./history/seeded.js";
import { loadHistorySettings } from "./history/settings.js";

const PAGE = 50;
/** The deep page sits this far into the month's positions. */
const DEEP_AT = 0.9;

const settings = loadHistorySettings();
// Ten warm-ups: a device-day answer is written by code the JIT compiles over its first few calls, and
// the figures are of the steady state, not of compiling it.
const measureOptions = { samples: settings.BENCH_HISTORY_SAMPLES, warmups: 10, maxS: settings.BENCH_HISTORY_MEASURE_MAX_S };
/** Every measure's CPU is this process's: the app and the raw queries' engine both run in it. */
const measure = (name: string, run: () => Promise<number>): Measure => ({ name, run, cpuMs: ownCpuMs });

async function main() {
  log(`bench:history ${loadNote()}`);
  const seeded = await prepareSeeded(settings, log);
  const { layout } = seeded;
  const deviceId = seeded.owner.deviceIds[0]!;

  log("starting the all-in-one app on the seeded directory, in this process (one chDB engine for the app and the raw queries)");
  const app = await startAppOn(seeded.dataDir);
  const stopApp = defer("stop the app", () => app.close());
  const raw = openRawHistory(seeded.historyPath);
  const client = new ThreadClient(app.url);
  let figures: Figures[];
  let seedFacts;
  try {
    const [parts, dayRows, monthRows] = [await raw.parts(), await raw.count(deviceId, layout.day), await raw.count(deviceId, layout.month)];
    const deepOffset = Math.max(0, Math.floor((DEEP_AT * monthRows) / PAGE) * PAGE);
    seedFacts = { rows: seeded.rows, devices: layout.devices.length, seconds: seeded.seedSeconds, parts, dayRows, monthRows, deepOffset };
    log(`the store: ${fmt(parts)} parts; the measured device (id ${deviceId}): ${fmt(dayRows)} positions on ${new Date(layout.day.fromMs).toISOString().slice(0, 10)}, ${fmt(monthRows)} in the month from ${new Date(layout.month.fromMs).toISOString().slice(0, 10)}; deep page at offset ${fmt(deepOffset)}`);

    // Each endpoint beside the raw query that fetches its rows; an endpoint this checkout lacks (404) is left out.
    const paths = endpointPaths({ apiHash: seeded.owner.apiHash, deviceId, layout, pageSize: PAGE, deepOffset });
    const endpoint = async (name: string, path: string): Promise<Measure[]> => {
      if ((await client.status(path)) !== 404) return [measure(name, () => client.checkedGet(path))];
      log(`  ${path.split("?")[0]} answers 404 in this checkout: ${name} is left out`);
      return [];
    };
    const measures = [
      measure("raw_day", () => raw.range(deviceId, layout.day)),
      ...(await endpoint("history_day", paths.day)),
      measure("raw_page1", () => raw.page(deviceId, layout.month, PAGE, 0)),
      ...(await endpoint("history_messages_page1", paths.page1)),
      measure("raw_deep_page", () => raw.page(deviceId, layout.month, PAGE, deepOffset)),
      ...(await endpoint("history_messages_deep", paths.deep)),
      measure("raw_month_count", async () => {
        await raw.count(deviceId, layout.month);
        return 0;
      }),
    ];
    log(`measuring ${measures.length} measures in ${settings.BENCH_HISTORY_ROUNDS} rounds ${loadNote()}`);
    figures = await measureRounds(measures, settings.BENCH_HISTORY_ROUNDS, measureOptions, log);
  } finally {
    await client.close();
    await raw.close();
    await stopApp();
  }

  await cleanup();
  log(`done in ${fmt(elapsedS())} s`);
  report({ seed: seedFacts, figures });
}

await runBench(main);
