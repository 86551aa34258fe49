import { latestPath } from "./api.js";
import { startBare } from "./bare.js";
import { pushFirstFixes } from "./first-fixes.js";
import { log, sleep } from "./harness.js";
import { Client } from "./http.js";
import { loadPhase } from "./load.js";
import { FixClock, Traffic } from "./positions.js";
import { loadNote, serviceCpuMs } from "./proc.js";
import { quietRound, type QuietRound } from "./quiet.js";
import type { StoreResult } from "./report.js";
import { seedPopulation } from "./seed.js";
import type { LiveBenchEnv } from "./settings.js";
import { startStandalone } from "./standalone.js";
import { fmt } from "./stats.js";
import { prepareStore, storeLabel, type StoreKind } from "./stores.js";

/**
 * Waits (up to 15 s) until the app answers a cheap poll quickly again: requests the load
 * left unanswered keep running in the app after their clients are gone, and a stop
 * meanwhile would cut them off from the stores they wait on.
 */
async function settle(client: Client, apiHash: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const reply = await client.get(latestPath(apiHash, Math.floor(Date.now() / 1000)));
    if ((reply.status === 200 && reply.ms < 100) || Date.now() - started > 15_000) break;
    await sleep(200);
  }
  const waited = (Date.now() - started) / 1000;
  log(waited > 15 ? `  the app is still slow ${fmt(waited, 1)} s after the load stopped; stopping it anyway` : `  the app answers promptly again ${fmt(waited, 1)} s after the load stopped`);
}

/**
 * Everything measured on one store: a fresh store, seeded; the standalone app on it in a
 * child process; every device's first position; the quiet rounds; the load phase. The
 * app, the bare server and the store are removed before the next store starts.
 */
export async function runStore(kind: StoreKind, s: LiveBenchEnv): Promise<StoreResult> {
  log(`== ${storeLabel(kind)} ==`);
  const store = await prepareStore(kind, s.BENCH_LIVE_REDIS_DB, log);
  try {
    const shape = { devices: s.BENCH_LIVE_DEVICES, clients: s.BENCH_LIVE_CLIENTS, devicesPerClient: s.BENCH_LIVE_DEVICES_PER_CLIENT };
    log(`seeding 1 measured user with ${fmt(shape.devices)} devices and ${shape.clients} clients with ${shape.devicesPerClient} each, straight into the database`);
    let t = Date.now();
    const population = await seedPopulation(store.db, shape, log);
    log(`  seeded in ${fmt((Date.now() - t) / 1000, 1)} s`);

    log(`starting apps/standalone (child process) ${loadNote()}`);
    t = Date.now();
    const app = await startStandalone({
      dataDir: store.dataDir,
      storeEnv: store.env,
      extraEnv: { OFFLINE_AFTER_MINUTES: String(s.BENCH_LIVE_OFFLINE_AFTER_MINUTES) },
      startTimeoutS: s.BENCH_LIVE_START_TIMEOUT_S,
      log,
    });
    log(`  answering at ${app.url} (pid ${app.pid}) after ${fmt((Date.now() - t) / 1000, 1)} s`);
    const services = kind === "postgres" ? serviceCpuMs : undefined;
    const client = new Client(app.url, { maxSockets: 1, timeoutMs: 120_000 });
    const bare = await startBare();
    const bareClient = new Client(bare.url, { maxSockets: 1, timeoutMs: 120_000 });
    try {
      const clock = new FixClock();
      await pushFirstFixes(client, population, clock, log);

      const changed = Math.min(s.BENCH_LIVE_CHANGED, shape.devices);
      const traffic = new Traffic(population.measured.imeis, clock);
      const rounds: QuietRound[] = [];
      for (let r = 1; r <= s.BENCH_LIVE_ROUNDS; r++) {
        log(`quiet round ${r}/${s.BENCH_LIVE_ROUNDS}: sequential requests as the measured user, nothing else running ${loadNote()}`);
        rounds.push(
          await quietRound({
            app: { client, cpuMs: app.cpuMs },
            serviceCpuMs: services,
            bare,
            bareClient,
            measured: population.measured,
            traffic,
            changed,
            samples: { empty: s.BENCH_LIVE_EMPTY_POLLS, changed: s.BENCH_LIVE_CHANGED_POLLS, full: s.BENCH_LIVE_FULL_REQUESTS, maxS: s.BENCH_LIVE_MEASURE_MAX_S },
            log,
          }),
        );
      }
      bareClient.close();
      await bare.stop();

      log(`load phase ${loadNote()}`);
      const load = await loadPhase(
        { url: app.url, cpuMs: app.cpuMs, serviceCpuMs: services },
        population,
        clock,
        {
          rate: s.BENCH_LIVE_RATE,
          tickMs: s.BENCH_LIVE_TICK_MS,
          rampS: s.BENCH_LIVE_RAMP_S,
          loadS: s.BENCH_LIVE_LOAD_S,
          pollMs: s.BENCH_LIVE_POLL_MS,
          probeMs: s.BENCH_LIVE_PROBE_MS,
          probePollMs: s.BENCH_LIVE_PROBE_POLL_MS,
          probeTimeoutMs: s.BENCH_LIVE_PROBE_TIMEOUT_MS,
        },
        log,
      );
      await settle(client, population.measured.apiHash);
      if (app.suppressed() > 0) log(`  the app printed ${app.suppressed()} more warning/error lines than shown`);
      return { kind, rounds, load };
    } finally {
      client.close();
      bareClient.close();
      log("stopping the app and removing the store");
      await bare.stop();
      await app.stop();
    }
  } finally {
    await store.release();
  }
}
