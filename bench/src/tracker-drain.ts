import { Kafka, Partitioners, logLevel, type Message } from "kafkajs";
import type { Bus, BusProducer } from "@fleet/bus";
import { trackerSettings, type TrackerEnv } from "@fleet/config";
import { createDevice, createUser, openDb, type DbHandle } from "@fleet/db";
import { createChdbHistory, type HistoryStore } from "@fleet/history";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { redisTest, tempChdbDir, tempPostgresDb } from "@fleet/testkit";
import { startTracker, type TrackerOptions } from "@fleet/tracker";
import { imeiOf, rawPosition } from "./fixtures.js";
import { countingBus, type SendCounter } from "./counting.js";

export interface DrainOptions {
  bus: Bus;
  brokers: string[];
  rawTopic: string;
  /** Where the raw kafkajs baseline writes (nothing consumes it). */
  baselineTopic: string;
  enrichedTopic: string;
  groupId: string;
  positions: number;
  devices: number;
  prefillBatch: number;
  timeoutS: number;
  config: TrackerEnv;
  /** Pushes an undo step; the caller runs them in reverse at the end, also after a failure. */
  defer(what: string, undo: () => Promise<unknown>): void;
  log(line: string): void;
  loadNote(): string;
}

export interface Backlog {
  db: DbHandle;
  prefillPerS: number;
  prefillS: number;
  /** This process's CPU time per message (JSON + kafkajs encoding). */
  prefillCpuUs: number;
}

export interface DrainRun {
  trackerPerS: number;
  trackerS: number;
  /** This process's CPU time per position (all threads: kafkajs, chDB, JSON...). */
  trackerCpuUs: number;
  /** From startTracker() to its consumer holding partitions (group join). */
  joinS: number;
  counted: number;
  complete: boolean;
  /** Sends to the enriched topic and the messages they carried. */
  enriched: SendCounter;
  historyInserts: number;
  rowsPerInsert: number;
}

export type DrainResult = Omit<Backlog, "db"> & DrainRun;

/** What-if hooks for experiments; the bench itself runs the tracker as shipped. */
export interface TrackerVariant {
  wrapHistory?(history: HistoryStore): HistoryStore;
  wrapLive?(live: LiveStore): LiveStore;
  /** Replaces the bus producer the tracker gets (for positions.enriched). */
  producer?(): Promise<BusProducer>;
  /** When history is wrapped its count() may not be the truth: finish on the pipeline's own counter. */
  finishOnPipeline?: boolean;
}

const USERS = 10;

const warnOnly = (prefix: string): TrackerOptions["logger"] => ({
  info() {},
  warn: (obj, msg) => console.error(`${prefix} warn: ${msg ?? ""} ${JSON.stringify(obj, errorFields)}`),
  error: (obj, msg) => console.error(`${prefix} error: ${msg ?? ""} ${JSON.stringify(obj, errorFields)}`),
});
function errorFields(_key: string, value: unknown) {
  return value instanceof Error ? { name: value.name, message: value.message, cause: String(value.cause ?? "") } : value;
}

const elapsedS = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

/** ~1000 devices over 10 users in a fresh database, as the tracker's directory will load them. */
async function registerDevices(opts: DrainOptions): Promise<DbHandle> {
  const pg = await tempPostgresDb();
  opts.defer("drop the temporary database", () => pg.cleanup());
  const handle = await openDb({ databaseUrl: pg.url, dataDir: "./unused" });
  opts.defer("close the database pool", () => handle.close());
  await handle.migrate();
  const users = [];
  for (let u = 0; u < USERS; u++) users.push(await createUser(handle.db, { email: `bench${u}@fleet.local`, password: "bench-password" }));
  for (let d = 0; d < opts.devices; d += 10) {
    const chunk = [];
    for (let k = d; k < Math.min(d + 10, opts.devices); k++) {
      chunk.push(createDevice(handle.db, users[k % USERS]!.id, { name: `bench ${k}`, imei: imeiOf(k) }));
    }
    await Promise.all(chunk);
  }
  return handle;
}

const BASELINE_MESSAGES = 200_000;

/** This part's baseline: a plain kafkajs producer, one record per position, acks=-1, 4 sends in flight. */
async function rawKafkajsBaseline(opts: DrainOptions, firstFixTime: number, idBase: number): Promise<{ perS: number; s: number; cpuUs: number }> {
  const kafka = new Kafka({ clientId: "fleet-bench-baseline", brokers: opts.brokers, logLevel: logLevel.WARN });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
  await producer.connect();
  const count = Math.min(BASELINE_MESSAGES, opts.positions);
  try {
    const t0 = process.hrtime.bigint();
    const cpu0 = process.cpuUsage();
    const inFlight = new Set<Promise<unknown>>();
    for (let start = 0; start < count; start += opts.prefillBatch) {
      const end = Math.min(start + opts.prefillBatch, count);
      const messages: Message[] = [];
      for (let n = start; n < end; n++) {
        const p = rawPosition(n, opts.devices, firstFixTime, idBase);
        messages.push({ key: p.uniqueId, value: JSON.stringify(p) });
      }
      const sent = producer.send({ topic: opts.baselineTopic, acks: -1, messages });
      inFlight.add(sent);
      void sent.finally(() => inFlight.delete(sent));
      if (inFlight.size >= 4) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    const s = elapsedS(t0);
    const cpu = process.cpuUsage(cpu0);
    return { perS: count / s, s, cpuUs: (cpu.user + cpu.system) / count };
  } finally {
    await producer.disconnect();
  }
}

/**
 * Queues the backlog as ingest queues positions: through the platform's bus producer
 * (which packs each partition's messages into one record), one send at a time so each
 * device's fixes stay in order.
 */
async function prefill(opts: DrainOptions): Promise<{ perS: number; s: number; cpuUs: number }> {
  const firstFixTime = Date.now() - Math.ceil(opts.positions / opts.devices) * 1000 - 60_000;
  const idBase = Date.now() * 8; // unique per run, far below 2^53
  const baseline = await rawKafkajsBaseline(opts, firstFixTime, idBase);
  opts.log(`  raw kafkajs baseline: ${Math.round(baseline.perS).toLocaleString("en")} msg/s (${baseline.cpuUs.toFixed(1)} µs CPU/msg)`);
  const producer = await opts.bus.producer();
  try {
    const t0 = process.hrtime.bigint();
    let nextReport = 200_000;
    for (let start = 0; start < opts.positions; start += opts.prefillBatch) {
      const end = Math.min(start + opts.prefillBatch, opts.positions);
      const messages = [];
      for (let n = start; n < end; n++) {
        const p = rawPosition(n, opts.devices, firstFixTime, idBase);
        messages.push({ key: p.uniqueId, value: Buffer.from(JSON.stringify(p)) });
      }
      await producer.send(opts.rawTopic, messages, { timeoutMs: 30_000 });
      if (end >= nextReport) {
        opts.log(`  queued: ${end.toLocaleString("en")} positions, ${Math.round(end / elapsedS(t0)).toLocaleString("en")}/s`);
        nextReport += 200_000;
      }
    }
  } finally {
    await producer.close();
  }
  return baseline;
}

/** Devices in Postgres and `positions` raw positions waiting in `rawTopic`. */
export async function prepareBacklog(opts: DrainOptions): Promise<Backlog> {
  opts.log(`registering ${opts.devices} devices in a temporary Postgres database`);
  const db = await registerDevices(opts);
  opts.log(`pre-filling ${opts.rawTopic} with ${opts.positions.toLocaleString("en")} raw positions`);
  const filled = await prefill(opts);
  opts.log(`  prefill done: ${Math.round(filled.perS).toLocaleString("en")} msg/s (${filled.s.toFixed(1)} s, ${filled.cpuUs.toFixed(1)} µs CPU/msg)`);
  return { db, prefillPerS: filled.perS, prefillS: filled.s, prefillCpuUs: filled.cpuUs };
}

/**
 * The real tracker (chDB history in a temp dir, Redis live state under its own prefix,
 * Postgres devices, Kafka) drains the backlog from the start of `groupId`; timed from the
 * moment its consumer holds the partitions until history counts every position.
 */
export async function drainWithTracker(opts: DrainOptions, db: DbHandle, groupId: string, variant: TrackerVariant = {}): Promise<DrainRun> {
  const chdbDir = await tempChdbDir();
  opts.defer("remove the chDB directory", () => chdbDir.cleanup());
  const history = createChdbHistory({ path: chdbDir.path });
  let historyClosed = false;
  const closeHistory = async () => {
    if (historyClosed) return;
    historyClosed = true;
    await history.close();
  };
  opts.defer("close chDB", closeHistory);
  await history.migrate();

  const redis = redisTest("bench");
  opts.defer("delete the Redis keys", () => redis.cleanup());
  const live = createRedisLive({ url: redis.url, keyPrefix: redis.keyPrefix });
  opts.defer("close Redis", () => live.close());

  opts.log(
    `starting the tracker ${opts.loadNote()} (flushRows=${opts.config.TRACKER_FLUSH_ROWS}, flushMs=${opts.config.TRACKER_FLUSH_MS}, partitionsConcurrently=${opts.config.TRACKER_PARTITIONS_CONCURRENTLY})`,
  );
  const enriched: SendCounter = { sends: 0, messages: 0, sendMs: 0 };
  const bus = countingBus(opts.bus, enriched);
  const variantProducer = variant.producer;
  // Counts the tracker's history inserts (how many rows each flush carried).
  const inserts = { calls: 0, rows: 0 };
  const base = variant.wrapHistory ? variant.wrapHistory(history) : history;
  const counted: HistoryStore = {
    ...base,
    insert: (rows) => {
      inserts.calls++;
      inserts.rows += rows.length;
      return base.insert(rows);
    },
  };
  const tJoin = process.hrtime.bigint();
  const tracker = await startTracker({
    bus: variantProducer ? { ...bus, producer: variantProducer } : bus,
    db: db.db,
    history: counted,
    live: variant.wrapLive ? variant.wrapLive(live) : live,
    logger: warnOnly("[tracker]"),
    ...trackerSettings(opts.config),
    topic: opts.rawTopic,
    enrichedTopic: opts.enrichedTopic,
    groupId,
  });
  let closed = false;
  const closeTracker = async () => {
    if (closed) return;
    closed = true;
    await tracker.close();
  };
  opts.defer("stop the tracker", closeTracker);
  const joinS = elapsedS(tJoin);
  opts.log(`  tracker joined its group in ${joinS.toFixed(1)} s; draining`);

  // The clock runs from the moment the consumer holds its partitions. The pipeline's own
  // counter (positions whose history, live and enriched writes all settled) is checked
  // often to time the end closely; history count() is polled every second and has the last word.
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  let doneAtS: number | undefined;
  let cpuAtDone: NodeJS.CpuUsage | undefined;
  const watch = setInterval(() => {
    if (doneAtS === undefined && tracker.pipeline.stats().positions >= opts.positions) {
      doneAtS = elapsedS(t0);
      cpuAtDone = process.cpuUsage(cpu0);
    }
  }, 20);
  let inHistory = 0;
  let last = { t: 0, n: 0 };
  try {
    while (elapsedS(t0) < opts.timeoutS) {
      await new Promise((r) => setTimeout(r, 1000));
      const stats = tracker.pipeline.stats();
      inHistory = variant.finishOnPipeline ? stats.positions : await history.count();
      const t = elapsedS(t0);
      opts.log(
        `  tracker: t=${t.toFixed(1)}s history=${inHistory.toLocaleString("en")} (${Math.round((inHistory - last.n) / (t - last.t)).toLocaleString("en")}/s now, ${Math.round(inHistory / t).toLocaleString("en")}/s avg) pipeline=${stats.positions.toLocaleString("en")} inserts=${inserts.calls} unregistered=${stats.unregistered} invalid=${stats.invalid} enriched=${enriched.messages.toLocaleString("en")}`,
      );
      last = { t, n: inHistory };
      if (inHistory >= opts.positions) break;
    }
  } finally {
    clearInterval(watch);
  }
  const cpu = cpuAtDone ?? process.cpuUsage(cpu0);
  const complete = inHistory >= opts.positions;
  const trackerS = complete ? (doneAtS ?? last.t) : last.t;
  await closeTracker();
  // chDB holds one data directory per process: close it now so a next run can open another.
  await closeHistory();
  return {
    trackerCpuUs: (cpu.user + cpu.system) / Math.max(inHistory, 1),
    trackerPerS: inHistory / trackerS,
    trackerS,
    joinS,
    counted: inHistory,
    complete,
    enriched,
    historyInserts: inserts.calls,
    rowsPerInsert: inserts.calls > 0 ? inserts.rows / inserts.calls : 0,
  };
}

/** Part 4 of the bench: backlog, then the tracker as shipped. */
export async function trackerDrain(opts: DrainOptions): Promise<DrainResult> {
  const { db, ...backlog } = await prepareBacklog(opts);
  return { ...backlog, ...(await drainWithTracker(opts, db, opts.groupId)) };
}
