/**
 * `pnpm bench:ingest`: how close the durable ingest path comes to a bare HTTP server,
 * how fast batches go through it, and how fast the tracker drains a backlog.
 *
 *   1. bare node:http GET /insert.php (baseline)      } autocannon in a child process,
 *   2. ingest app GET /insert.php → Kafka, acks=all    } 100 connections, ~1000 devices
 *   3. ingest app POST /insert, 500 positions per body, 10 connections
 *   4. tracker draining 1,000,000 raw positions into chDB + Redis (+ enriched topic)
 *
 * Ends with three machine-readable lines; exits 0 even when a bar is missed.
 */
import { logLevel } from "kafkajs";
import { createKafkaBus, type Bus } from "@fleet/bus";
import { IngestEnvSchema, TrackerEnvSchema, loadConfigOrExit } from "@fleet/config";
import { kafkaTest, probeServices, serviceUrls } from "@fleet/testkit";
import type { LoadResult } from "./load.js";
import { fmt, loadNote, measure, warmBroker } from "./measure.js";
import { startBareServer, startIngestServer, type Running } from "./servers.js";
import { loadBenchSettings } from "./settings.js";
import { trackerDrain, type DrainResult } from "./tracker-drain.js";

const BARS = { ratio: 0.6, p99Ms: 50, batchPerS: 100_000, trackerPerS: 30_000 };

const settings = loadBenchSettings();
const ingestConfig = loadConfigOrExit(IngestEnvSchema);
const trackerConfig = loadConfigOrExit(TrackerEnvSchema);
const parts = new Set(settings.BENCH_PARTS.split(","));

const started = Date.now();
const log = (line: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);

// Undo steps, run last-in first-out at the end, after a failure and on Ctrl-C.
const undo: { what: string; run: () => Promise<unknown> }[] = [];
const defer = (what: string, run: () => Promise<unknown>) => void undo.push({ what, run });
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (undo.length > 0) {
      const step = undo.pop()!;
      try {
        await step.run();
      } catch (err) {
        console.error(`[bench] cleanup: could not ${step.what}: ${String(err)}`);
      }
    }
  })();
  return cleaning;
}
process.once("SIGINT", () => {
  log("interrupted; cleaning up");
  void cleanup().finally(() => process.exit(130));
});

/** The median round (by requests/s) of several, with every round's rate. */
type Rounds = LoadResult & { rounds: number[] };
function medianByRps(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => a.rps - b.rps)[Math.floor((results.length - 1) / 2)]!;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

const measureOpts = { durationS: settings.BENCH_DURATION_S, warmupS: settings.BENCH_WARMUP_S, log };

async function main() {
  const services = await probeServices();
  const missing = (["kafka", "postgres", "redis"] as const).filter((s) => !services[s] && (s === "kafka" || parts.has("tracker")));
  if (missing.length > 0) {
    console.error(`[bench] not reachable: ${missing.join(", ")} (start Kafka with \`bash infra/kafka.sh start\`, or \`bash infra/up.sh\`)`);
    process.exit(1);
  }

  const names = kafkaTest("bench");
  defer("delete the bench topics and groups", () => names.cleanup());
  const ingestTopic = names.topic("ingest-raw");
  const trackerTopic = names.topic("tracker-raw");
  const enrichedTopic = names.topic("tracker-enriched");
  const groupId = names.groupId("tracker");
  const brokers = serviceUrls.kafka.split(",").map((b) => b.trim());
  const bus: Bus = createKafkaBus({
    brokers,
    clientId: "fleet-bench",
    logLevel: logLevel.WARN,
    logger: { info() {}, warn: (o, m) => console.error(`[kafka] ${m ?? ""}`, o), error: (o, m) => console.error(`[kafka] ${m ?? ""}`, o) },
  });
  defer("close the bus", () => bus.close());
  log(`creating topics ${[ingestTopic, trackerTopic, enrichedTopic].join(", ")} (12 partitions)`);
  await bus.ensureTopics([ingestTopic, trackerTopic, enrichedTopic], 12);

  const fixTime = Date.now() - 60_000;
  const getSpec = { kind: "traccar-get", connections: settings.BENCH_CONNECTIONS, devices: settings.BENCH_DEVICES, fixTime } as const;
  let bare: Rounds | undefined;
  let get: (Rounds & { worstP99Ms: number }) | undefined;
  let batch: LoadResult | undefined;
  let drain: DrainResult | undefined;

  if (parts.has("bare") || parts.has("get") || parts.has("batch")) {
    // Both servers run side by side and the GET load alternates between them, round by
    // round: on a shared machine the speed drifts over minutes (the same server was
    // measured at 32k and 40k req/s in runs minutes apart), and alternating lets a drift
    // hit baseline and ingest alike instead of whichever ran in the slow minute.
    const bareServer = parts.has("bare") ? await startBareServer() : undefined;
    if (bareServer) defer("stop the bare server", () => bareServer.close());
    let ingestServer: Running | undefined;
    if (parts.has("get") || parts.has("batch")) {
      log(`ingest app: batchMax=${ingestConfig.INGEST_BATCH_MAX}, lingerMs=${ingestConfig.INGEST_LINGER_MS}, topic ${ingestTopic}`);
      const server = await startIngestServer(await bus.producer(), ingestConfig, ingestTopic);
      defer("stop the ingest server", () => server.close());
      if (settings.BENCH_BROKER_WARMUP_S > 0) await warmBroker(server, getSpec, settings.BENCH_BROKER_WARMUP_S, log);
      ingestServer = server;
    }
    const getServer = parts.has("get") ? ingestServer : undefined;
    if (bareServer || getServer) {
      const bareRounds: LoadResult[] = [];
      const getRounds: LoadResult[] = [];
      for (let r = 1; r <= settings.BENCH_ROUNDS; r++) {
        const opts = { ...measureOpts, warmupS: r === 1 ? settings.BENCH_WARMUP_S : 0 };
        const of = `(round ${r}/${settings.BENCH_ROUNDS})`;
        if (bareServer) bareRounds.push(await measure(`bare node:http GET /insert.php ${of}`, bareServer, getSpec, opts));
        if (getServer) getRounds.push(await measure(`ingest GET /insert.php (Kafka acks=all) ${of}`, getServer, getSpec, opts));
      }
      bare = bareRounds.length > 0 ? { ...medianByRps(bareRounds), rounds: bareRounds.map((x) => x.rps) } : undefined;
      const sum = (f: (x: LoadResult) => number) => getRounds.reduce((n, x) => n + f(x), 0);
      get =
        getRounds.length > 0
          ? {
              ...medianByRps(getRounds),
              // Failures and the worst p99 of every round, not only the median one's.
              non2xx: sum((x) => x.non2xx),
              errors: sum((x) => x.errors),
              timeouts: sum((x) => x.timeouts),
              rounds: getRounds.map((x) => x.rps),
              worstP99Ms: Math.max(...getRounds.map((x) => x.latencyP99Ms)),
            }
          : undefined;
    }
    if (ingestServer && parts.has("batch")) {
      batch = await measure(`ingest POST /insert, ${settings.BENCH_BATCH_SIZE} positions per request`, ingestServer, {
        kind: "batch-post",
        connections: settings.BENCH_BATCH_CONNECTIONS,
        devices: settings.BENCH_DEVICES,
        fixTime,
        batchSize: settings.BENCH_BATCH_SIZE,
      }, measureOpts);
    }
    await ingestServer?.close();
    await bareServer?.close();
  }

  if (parts.has("tracker")) {
    drain = await trackerDrain({
      bus,
      brokers,
      rawTopic: trackerTopic,
      baselineTopic: ingestTopic,
      enrichedTopic,
      groupId,
      positions: settings.BENCH_TRACKER_POSITIONS,
      devices: settings.BENCH_DEVICES,
      prefillBatch: settings.BENCH_PREFILL_BATCH,
      timeoutS: settings.BENCH_TRACKER_TIMEOUT_S,
      config: trackerConfig,
      defer,
      log,
      loadNote,
    });
  }

  log("cleaning up");
  await cleanup();
  report(bare, get, batch, drain);
}

function report(bare?: Rounds, get?: Rounds & { worstP99Ms: number }, batch?: LoadResult, drain?: DrainResult) {
  // The median of the rounds' ratios: each round's pair ran back to back, under the same drift.
  const roundRatios = bare && get ? get.rounds.map((rps, i) => rps / bare.rounds[i]!) : [];
  const ratio = roundRatios.length > 0 ? median(roundRatios) : NaN;
  const batchPerS = batch ? batch.rps * settings.BENCH_BATCH_SIZE : NaN;
  const trackerPerS = drain ? drain.trackerPerS : NaN;
  const rows: [string, string, string, string, string][] = [["part", "result", "p99", "CPU", "baseline / note"]];
  const cpu = (us: number | undefined, per: string) => `${fmt(us ?? NaN, 1)} µs/${per}`;
  const each = (xs: number[]) => xs.map((x) => fmt(x)).join(", ");
  if (bare) rows.push(["bare node:http GET", `${fmt(bare.rps)} req/s`, `${fmt(bare.latencyP99Ms)} ms`, cpu(bare.serverCpuUsPerReq, "req"), `baseline; median of rounds ${each(bare.rounds)}`]);
  if (get) {
    const note = bare
      ? `ratio ${fmt(ratio, 2)}, median of rounds ${roundRatios.map((x) => fmt(x, 2)).join(", ")} (bar ≥ ${BARS.ratio}, p99 < ${BARS.p99Ms} ms)`
      : `rounds ${each(get.rounds)} (bar: p99 < ${BARS.p99Ms} ms)`;
    rows.push(["ingest GET → Kafka", `${fmt(get.rps)} req/s`, `${fmt(get.worstP99Ms)} ms`, cpu(get.serverCpuUsPerReq, "req"), note]);
  }
  if (batch) {
    const perPos = (batch.serverCpuUsPerReq ?? NaN) / settings.BENCH_BATCH_SIZE;
    rows.push([`ingest POST ×${settings.BENCH_BATCH_SIZE}`, `${fmt(batchPerS)} pos/s`, `${fmt(batch.latencyP99Ms)} ms`, cpu(perPos, "pos"), `${fmt(batch.rps, 1)} req/s (bar ≥ ${fmt(BARS.batchPerS)} pos/s)`]);
  }
  if (drain) {
    rows.push(["raw kafkajs producer", `${fmt(drain.prefillPerS)} msg/s`, "", cpu(drain.prefillCpuUs, "msg"), `baseline, ${fmt(drain.prefillS, 1)} s`]);
    rows.push([
      `tracker drain ${fmt(drain.counted)}`,
      `${fmt(drain.trackerPerS)} pos/s`,
      "",
      cpu(drain.trackerCpuUs, "pos"),
      `${fmt(drain.trackerS, 1)} s after a ${fmt(drain.joinS, 1)} s group join${drain.complete ? "" : " (INCOMPLETE: timed out)"} (bar ≥ ${fmt(BARS.trackerPerS)} pos/s)` +
        `; ${fmt(drain.historyInserts)} history inserts of ${fmt(drain.rowsPerInsert)} rows; ${fmt(drain.enriched.messages)} enriched messages in ${fmt(drain.enriched.sends)} sends`,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log("");
  for (const [i, r] of rows.entries()) {
    console.log(r.map((c, j) => c.padEnd(widths[j]!)).join("  "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  console.log("");

  const missed: string[] = [];
  if (bare && get && !(ratio >= BARS.ratio)) missed.push(`insert_vs_bare_ratio ${fmt(ratio, 2)} < ${BARS.ratio}`);
  if (get && !(get.worstP99Ms < BARS.p99Ms)) missed.push(`ingest GET p99 ${fmt(get.worstP99Ms)} ms >= ${BARS.p99Ms} ms`);
  if (batch && !(batchPerS >= BARS.batchPerS)) missed.push(`batch ${fmt(batchPerS)} pos/s < ${fmt(BARS.batchPerS)}`);
  if (drain && !(trackerPerS >= BARS.trackerPerS && drain.complete)) missed.push(`tracker ${fmt(trackerPerS)} pos/s < ${fmt(BARS.trackerPerS)}${drain.complete ? "" : " (incomplete)"}`);
  if (get && get.non2xx + get.errors + get.timeouts > 0) missed.push(`ingest GET had ${get.non2xx} non-2xx, ${get.errors} errors, ${get.timeouts} timeouts`);
  if (batch && batch.non2xx + batch.errors + batch.timeouts > 0) missed.push(`ingest POST had ${batch.non2xx} non-2xx, ${batch.errors} errors, ${batch.timeouts} timeouts`);
  console.log(`machine load average at the end ${loadNote()}; other work on the machine lowers every figure`);
  console.log(missed.length === 0 ? "all bars met" : `bars missed:\n${missed.map((m) => `  - ${m}`).join("\n")}`);
  console.log("");
  console.log(`insert_vs_bare_ratio=${Number.isNaN(ratio) ? "NaN" : ratio.toFixed(3)}`);
  console.log(`batch_positions_per_s=${Number.isNaN(batchPerS) ? "NaN" : Math.round(batchPerS)}`);
  console.log(`tracker_positions_per_s=${Number.isNaN(trackerPerS) ? "NaN" : Math.round(trackerPerS)}`);
}

try {
  await main();
  process.exit(0);
} catch (err) {
  console.error("[bench] failed:", err);
  await cleanup();
  process.exit(1);
}
