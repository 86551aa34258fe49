import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createChdbHistory } from "@fleet/history";
import { defer } from "../live/harness.js";
import { seedPopulation, type Account } from "../live/seed.js";
import { fmt } from "../live/stats.js";
import { layoutOf, type Layout } from "./layout.js";
import { seedHistory } from "./seed.js";
import type { HistoryBenchEnv } from "./settings.js";

/** A data directory holding the seed: the user and devices in PGlite, their positions in chDB. */
export interface Seeded {
  dataDir: string;
  /** Where chDB keeps the history inside it: where the standalone app's createHistory puts it. */
  historyPath: string;
  owner: Account;
  layout: Layout;
  /** How long the seeding took; absent when a kept directory was found already seeded. */
  seedSeconds?: number;
  rows: number;
}

const MARKER = "bench-history.json";

/** The settings that decide what is seeded: a kept directory seeded with others is not reused. */
const seedKey = (s: HistoryBenchEnv) =>
  [s.BENCH_HISTORY_POSITIONS, s.BENCH_HISTORY_DEVICES, s.BENCH_HISTORY_DEEP_DAYS, s.BENCH_HISTORY_INTERVAL_S, s.BENCH_HISTORY_SEED].join("/");

interface Marker {
  key: string;
  end: number;
  rows: number;
  owner: Account;
}

/**
 * A seeded data directory: BENCH_HISTORY_DATA_DIR as a previous run left it (same seeding
 * settings), or a new one seeded now: a temp directory removed at the end, or
 * BENCH_HISTORY_DATA_DIR kept for the next run.
 */
export async function prepareSeeded(s: HistoryBenchEnv, log: (line: string) => void): Promise<Seeded> {
  const kept = s.BENCH_HISTORY_DATA_DIR ? path.resolve(s.BENCH_HISTORY_DATA_DIR) : undefined;
  const dataDir = kept ?? (await mkdtemp(path.join(os.tmpdir(), "fleet-bench-history-")));
  if (!kept) defer(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
  const historyPath = path.join(dataDir, "history");

  const markerPath = path.join(dataDir, MARKER);
  if (kept && existsSync(markerPath)) {
    const marker = JSON.parse(await readFile(markerPath, "utf8")) as Marker;
    if (marker.key === seedKey(s)) {
      log(`${kept} already holds this seed (${fmt(marker.rows)} positions); measuring it as it is`);
      return { dataDir, historyPath, owner: marker.owner, layout: layoutOf(s, marker.end), rows: marker.rows };
    }
    throw new Error(`${kept} was seeded with other settings (${marker.key}, now ${seedKey(s)}): remove it or name another BENCH_HISTORY_DATA_DIR`);
  }
  if (kept) {
    await mkdir(kept, { recursive: true });
    if ((await readdir(kept)).length > 0) throw new Error(`BENCH_HISTORY_DATA_DIR ${kept} is not empty and holds no seed of this bench: name an empty or new directory`);
  }

  const layout = layoutOf(s);
  log(`seeding 1 user with ${fmt(s.BENCH_HISTORY_DEVICES)} devices into ${dataDir} (PGlite)`);
  const population = await seedPopulation({ dataDir }, { devices: s.BENCH_HISTORY_DEVICES, clients: 0, devicesPerClient: 1 }, log);
  const owner = population.measured;

  log(`seeding ${fmt(s.BENCH_HISTORY_POSITIONS)} positions (chDB, batches of ${fmt(s.BENCH_HISTORY_BATCH)}); the measured device: ${fmt(layout.devices[0]!.count)} positions over ${fmt((layout.devices[0]!.count * layout.intervalMs) / 86_400_000, 1)} days`);
  const history = createChdbHistory({ path: historyPath });
  let seeded;
  try {
    await history.migrate();
    seeded = await seedHistory(history, owner, layout, { seed: s.BENCH_HISTORY_SEED, batch: s.BENCH_HISTORY_BATCH, log });
  } finally {
    await history.close();
  }
  log(`  seeded ${fmt(seeded.rows)} positions in ${fmt(seeded.seconds, 1)} s (${fmt(seeded.rows / seeded.seconds)}/s)`);
  if (kept) await writeFile(markerPath, JSON.stringify({ key: seedKey(s), end: layout.end, rows: seeded.rows, owner } satisfies Marker));
  return { dataDir, historyPath, owner, layout, seedSeconds: seeded.seconds, rows: seeded.rows };
}
