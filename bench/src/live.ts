/**
 * `pnpm bench:live`: the live device list of one user with 10,000 devices, on the
 * embedded stores and on Postgres + Redis, with the standalone app in a child process:
 *
 *   quiet (3 rounds, sequential, each beside a bare node:http server answering the same bytes):
 *     1. get_devices_latest with 0 devices changed since `time`
 *     2. get_devices_latest with 1,000 devices changed
 *     3. the full get_devices (~15 MB)
 *   under load (10,000 positions/s into 200 other users' devices, each of them polling every 2 s):
 *     4. insert → visible: a new position for one of the user's devices until a poll shows it
 *
 * Ends with name=value lines (Postgres + Redis unprefixed, embedded prefixed `embedded_`)
 * and `bars_met=<n>/4`; exits 0 whether or not the bars are met. See bench/README.md.
 */
import { probeServices } from "@fleet/testkit";
import { cleanup, elapsedS, log, runBench } from "./live/harness.js";
import { report, type StoreResult } from "./live/report.js";
import { runStore } from "./live/run-store.js";
import { loadLiveSettings } from "./live/settings.js";
import { fmt } from "./live/stats.js";
import type { StoreKind } from "./live/stores.js";

const settings = loadLiveSettings();
const stores = settings.BENCH_LIVE_STORES.split(",") as StoreKind[];

async function main() {
  if (stores.includes("postgres")) {
    const services = await probeServices();
    const missing = (["postgres", "redis"] as const).filter((s) => !services[s]);
    if (missing.length > 0) {
      console.error(`[bench] not reachable: ${missing.join(", ")} (start them with \`bash infra/up.sh\`, or run BENCH_LIVE_STORES=embedded)`);
      process.exit(1);
    }
  }
  const results: StoreResult[] = [];
  for (const kind of stores) results.push(await runStore(kind, settings));
  await cleanup();
  log(`done in ${fmt(elapsedS())} s`);
  report(results);
}

await runBench(main);
