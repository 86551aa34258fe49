/**
 * `pnpm bench:history`: history reads at the scale the store was chosen for. Seeds chDB with
 * 10M positions over 1,000 devices from the track model (@fleet/tracks), written straight to
 * the store, then measures, each beside the raw ClickHouse query that fetches the same rows:
 *
 *   raw:       a device-day (≈ 8,640 positions at 10 s); a page of 50 at the start of a
 *              month-long range and one deep in it; the range's count
 *   endpoints: get_history_messages page 1 and the deep page; get_history for the device-day
 *              (when the API has them; see endpoints.ts)
 *
 * Ends with name=value lines; exits 0 whether or not the bars are met. See bench/README.md.
 */
import { cleanup, elapsedS, log, runBench } from "./live/harness.js";
import { loadNote, ownCpuMs } from "./live/proc.js";
import { fmt } from "./live/stats.js";
import { measureRounds, type Measure } from "./history/measure.js";
import { openRawHistory } from "./history/raw.js";
import { report } from "./history/report.js";
import { prepareSeeded } from "./history/seeded.js";
import { loadHistorySettings } from "./history/settings.js";

const PAGE = 50;
/** The deep page sits this far into the month's positions. */
const DEEP_AT = 0.9;

const settings = loadHistorySettings();
const measureOptions = { samples: settings.BENCH_HISTORY_SAMPLES, warmups: 3, maxS: settings.BENCH_HISTORY_MEASURE_MAX_S };

async function main() {
  log(`bench:history ${loadNote()}`);
  const seeded = await prepareSeeded(settings, log);
  const { layout } = seeded;
  const deviceId = seeded.owner.deviceIds[0]!;

  const raw = openRawHistory(seeded.historyPath);
  let rawFigures;
  let seedFacts;
  try {
    const [parts, dayRows, monthRows] = [await raw.parts(), await raw.count(deviceId, layout.day), await raw.count(deviceId, layout.month)];
    const deepOffset = Math.max(0, Math.floor((DEEP_AT * monthRows) / PAGE) * PAGE);
    seedFacts = { rows: seeded.rows, devices: layout.devices.length, seconds: seeded.seedSeconds, parts, dayRows, monthRows, deepOffset };
    log(`the store: ${fmt(parts)} parts; the measured device (id ${deviceId}): ${fmt(dayRows)} positions on ${new Date(layout.day.fromMs).toISOString().slice(0, 10)}, ${fmt(monthRows)} in the month from ${new Date(layout.month.fromMs).toISOString().slice(0, 10)}; deep page at offset ${fmt(deepOffset)}`);

    const rawMeasure = (name: string, run: () => Promise<number>): Measure => ({ name, run, cpuMs: ownCpuMs });
    log(`raw queries, in process ${loadNote()}`);
    rawFigures = await measureRounds(
      [
        rawMeasure("raw_day", () => raw.range(deviceId, layout.day)),
        rawMeasure("raw_page1", () => raw.page(deviceId, layout.month, PAGE, 0)),
        rawMeasure("raw_deep_page", () => raw.page(deviceId, layout.month, PAGE, deepOffset)),
        rawMeasure("raw_month_count", async () => {
          await raw.count(deviceId, layout.month);
          return 0;
        }),
      ],
      settings.BENCH_HISTORY_ROUNDS,
      measureOptions,
      log,
    );
  } finally {
    await raw.close();
  }

  await cleanup();
  log(`done in ${fmt(elapsedS())} s`);
  report({ seed: seedFacts, raw: rawFigures, endpoints: [] });
}

await runBench(main);
