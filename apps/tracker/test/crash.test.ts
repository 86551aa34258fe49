/**
 * Crash test: kill the tracker while it consumes, restart it, and history still holds each
 * acked position exactly once.
 *
 * The trackers run as child processes (tracker-child.ts) with the production adapters: Kafka,
 * Postgres, Redis, and chDB for history. chDB binds its data directory to one process, so the
 * directory is handed from the killed tracker to its replacement, and this process opens it
 * only while neither child runs (docs: DESIGN.md, "Embedded stores are single-process").
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaBus, DEFAULT_SESSION_TIMEOUT_MS, type Bus } from "@fleet/bus";
import type { HistoryRow, LiveState, RawPosition } from "@fleet/contracts";
import { createDevice, createUser, openDb, type DbHandle } from "@fleet/db";
import { createChdbHistory } from "@fleet/history";
import { createRedisLive } from "@fleet/live";
import { ScriptChild, describeChildren, groupProgress, hasService, kafkaTest, redisTest, seededRandom, sleep, tempChdbDir, tempPostgresDb } from "@fleet/testkit";
// The bus port has no admin side: the group's committed offsets are read with kafkajs itself.
import { Kafka, logLevel, type Admin } from "kafkajs";
import { enrichPosition } from "../src/index.js";

const DEVICES = 20;
const PER_DEVICE = 1000;
const N = DEVICES * PER_DEVICE;
const PARTITIONS = 12;
/** Child #1 is killed at its first history flush after this many positions went all the way through it. */
const KILL_AFTER_POSITIONS = 2000;

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const childPath = fileURLToPath(new URL("./tracker-child.ts", import.meta.url));
const silent = pino({ level: "silent" });
const log = (line: string) => console.log(`[crash] ${line}`);

interface ChildEvent {
  event: "ready" | "flushed" | "stats" | "closed";
  inserted?: number;
  positions?: number;
  rows?: number;
}

/** A tracker child process (see ScriptChild). */
type TrackerChild = ScriptChild<ChildEvent>;

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** PER_DEVICE fixes 10 s apart per device: a drive around a start point, ids unique across the run. */
function makeTracks(imeis: readonly string[]): RawPosition[][] {
  const rnd = seededRandom(0xf1ee7);
  const start = Date.UTC(2025, 4, 12, 6, 0, 0);
  return imeis.map((uniqueId, d) => {
    let lat = 54.6 + d * 0.05;
    let lng = 25.2 + d * 0.07;
    let course = rnd() * 360;
    let odometer = 10_000 + d * 1000;
    const track: RawPosition[] = [];
    for (let i = 0; i < PER_DEVICE; i++) {
      const stopped = i % 120 >= 100; // a 200 s stop every 20 minutes
      const speed = stopped ? 0 : round(15 + rnd() * 35, 1); // knots
      course = (course + (rnd() - 0.5) * 30 + 360) % 360;
      const km = (speed * 1.852 * 10) / 3600;
      lat += (km / 111.32) * Math.cos((course * Math.PI) / 180);
      lng += (km / (111.32 * Math.cos((lat * Math.PI) / 180))) * Math.sin((course * Math.PI) / 180);
      odometer += km;
      const fixTime = start + i * 10_000;
      track.push({
        id: 1_000_000 + d * PER_DEVICE + i,
        uniqueId,
        protocol: d % 2 === 0 ? "osmand" : "teltonika",
        latitude: round(lat, 6),
        longitude: round(lng, 6),
        altitude: round(120 + rnd() * 40, 1),
        course: round(course, 1),
        speed,
        fixTime,
        serverTime: fixTime + 800 + Math.floor(rnd() * 1500),
        attributes: { sat: 6 + Math.floor(rnd() * 8), ignition: !stopped, motion: speed > 0, power: round(12 + rnd() * 2, 2), odometer: Math.round(odometer * 1000) },
      });
    }
    return track;
  });
}

// Needs the real Kafka, Postgres and Redis (history is chDB in a temp directory). Without them
// (a machine where infra/up.sh has not run) it is skipped; in CI global setup has already failed the run.
describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("tracker crash and restart", () => {
  const kafka = kafkaTest("tracker-crash");
  const redis = redisTest("tracker-crash");
  const topic = kafka.topic("raw");
  const enrichedTopic = kafka.topic("enriched");
  const groupId = kafka.groupId("tracker");
  const children: TrackerChild[] = [];
  let pg: Awaited<ReturnType<typeof tempPostgresDb>> | undefined;
  let chdbDir: Awaited<ReturnType<typeof tempChdbDir>> | undefined;
  let db: DbHandle | undefined;
  let bus: Bus | undefined;
  let admin: Admin | undefined;
  const devices: { id: number; imei: string; userIds: number[]; minMovingSpeed: number }[] = [];
  /** What the crash test read back after the restart, for the row-by-row check after it. */
  let afterRestart: { rows: HistoryRow[]; expected: Map<number, HistoryRow>; idsAfterKill: Set<number> } | undefined;

  beforeAll(async () => {
    pg = await tempPostgresDb();
    chdbDir = await tempChdbDir();
    db = await openDb({ databaseUrl: pg.url, dataDir: os.tmpdir() });
    await db.migrate();
    const user = await createUser(db.db, { email: "crash@tracker.test", password: "crash-secret" });
    for (let d = 0; d < DEVICES; d++) {
      const imei = String(356_938_035_643_800 + d);
      const rec = await createDevice(db.db, user.id, { name: `van ${d + 1}`, imei });
      devices.push({ id: rec.id, imei, userIds: [user.id], minMovingSpeed: Number(rec.minMovingSpeed) });
    }
    bus = createKafkaBus({ brokers: kafka.brokers, clientId: "tracker-crash-test", logger: silent });
    await bus.ensureTopics([topic, enrichedTopic], PARTITIONS);
    admin = new Kafka({ clientId: "tracker-crash-admin", brokers: kafka.brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
  });

  afterAll(async () => {
    // Children first (even after a failure): a live member would keep the group from being deleted.
    await Promise.all(children.map((c) => c.stop("SIGKILL", 5000).catch(() => undefined)));
    await admin?.disconnect().catch(() => undefined);
    await bus?.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    await kafka.cleanup();
    await redis.cleanup();
    await pg?.cleanup();
    await chdbDir?.cleanup();
  });

  const progress = () => groupProgress(admin!, groupId, topic);

  /** Opens the chDB directory in this process (the children are gone), runs `fn`, closes it again. */
  async function withHistory<T>(fn: (h: ReturnType<typeof createChdbHistory>) => Promise<T>): Promise<T> {
    const h = createChdbHistory({ path: chdbDir!.path });
    try {
      return await fn(h);
    } finally {
      await h.close();
    }
  }

  function startChild(name: string, extraEnv: Record<string, string>): TrackerChild {
    const child = new ScriptChild<ChildEvent>(name, childPath, {
      KAFKA_BROKERS: kafka.brokers.join(","),
      DATABASE_URL: pg!.url,
      REDIS_URL: redis.url,
      DATA_DIR: chdbDir!.path,
      LOG_LEVEL: "warn",
      CRASH_TOPIC: topic,
      CRASH_GROUP_ID: groupId,
      CRASH_ENRICHED_TOPIC: enrichedTopic,
      CRASH_REDIS_KEY_PREFIX: redis.keyPrefix,
      CRASH_CHDB_PATH: chdbDir!.path,
      // Small flushes, so a kill lands between many of them.
      TRACKER_FLUSH_ROWS: "500",
      TRACKER_FLUSH_MS: "100",
      TRACKER_DEVICE_SYNC_MS: "1000",
      // The deployed default: how long a killed member holds its partitions is what this measures.
      CRASH_SESSION_TIMEOUT_MS: String(DEFAULT_SESSION_TIMEOUT_MS),
      ...extraEnv,
    }, repoRoot);
    children.push(child);
    return child;
  }

  it("kill -9 mid-stream, restart: history holds each acked position exactly once", { timeout: 120_000 }, async ({ onTestFailed }) => {
    onTestFailed(() => console.error(describeChildren(children)));
    const t0 = Date.now();
    const took = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

    // 1. The acked set: every position the bus acknowledged (acks=-1), in fix order per device.
    const tracks = makeTracks(devices.map((d) => d.imei));
    // One plain record per position (@fleet/bus packs a send per partition, and the tracker
    // reads both), so the group's offsets count positions.
    const producer = new Kafka({ clientId: "tracker-crash-producer", brokers: kafka.brokers, logLevel: logLevel.NOTHING }).producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      for (let i = 0; i < PER_DEVICE; i += 100) {
        const messages = tracks.flatMap((t) => t.slice(i, i + 100)).map((p) => ({ key: p.uniqueId, value: JSON.stringify(p) }));
        await producer.send({ topic, acks: -1, messages });
      }
    } finally {
      await producer.disconnect();
    }
    expect((await progress()).end).toBe(N);
    log(`${took()}: produced ${N} positions for ${DEVICES} devices to ${topic}`);

    // 2. Child #1, killed at a history flush: the rows of that flush are in chDB, their offsets
    // not committed (the insert's acknowledgement is held back 500 ms), and whatever else is in flight is lost.
    const first = startChild("tracker #1", { TRACKER_PARTITIONS_CONCURRENTLY: "3", CRASH_INSERT_ACK_DELAY_MS: "500" });
    await first.waitFor("ready", (e) => e.event === "ready", 30_000);
    log(`${took()}: tracker #1 joined`);
    const atKill = await first.waitFor(`a flush after ${KILL_AFTER_POSITIONS} positions`, (e) => e.event === "flushed" && (e.positions ?? 0) >= KILL_AFTER_POSITIONS, 30_000);
    first.kill("SIGKILL");
    const killedAt = Date.now();
    const firstExit = await first.exited;
    expect(firstExit.signal).toBe("SIGKILL");
    const reported1 = first.last()!;
    log(`${took()}: killed tracker #1 after it reported inserted=${reported1.inserted} positions=${reported1.positions} (kill at flush: ${JSON.stringify(atKill)})`);
    // The kill really landed mid-stream.
    expect(reported1.inserted).toBeLessThan(N);
    expect(reported1.positions).toBeLessThan(N);

    const afterKill = await progress();
    const { historyAfterKill, idsAfterKill } = await withHistory(async (h) => {
      const ids = new Set<number>();
      for (const device of devices) for (const r of await h.query({ deviceId: device.id, fromMs: 0, toMs: Date.UTC(2100, 0, 1) })) ids.add(r.id);
      return { historyAfterKill: await h.count(), idsAfterKill: ids };
    });
    expect(idsAfterKill.size).toBe(historyAfterKill);
    log(`${took()}: after the kill: history holds ${historyAfterKill}, the group committed ${afterKill.committed} of ${afterKill.end}`);
    // Offsets are committed only after the writes, so everything committed is in history...
    expect(historyAfterKill).toBeGreaterThanOrEqual(afterKill.committed);
    // ...and some rows are in history but not committed: tracker #2 must process them again.
    expect(historyAfterKill).toBeGreaterThan(afterKill.committed);
    expect(afterKill.committed).toBeLessThan(N);

    // 3. Child #2 on the same group and chDB directory, until the group has committed the whole topic.
    const second = startChild("tracker #2", { TRACKER_PARTITIONS_CONCURRENTLY: "12" });
    await second.waitFor("ready", (e) => e.event === "ready", 40_000);
    // The group hands the dead member's partitions on once its session times out; the restarted
    // member holds them all from then on (its join completes with the assignment).
    const recoverySeconds = (Date.now() - killedAt) / 1000;
    log(`${took()}: tracker #2 joined and took the partitions ${recoverySeconds.toFixed(1)} s after the kill (session timeout ${DEFAULT_SESSION_TIMEOUT_MS / 1000} s)`);
    expect(recoverySeconds).toBeLessThan(DEFAULT_SESSION_TIMEOUT_MS / 1000 + 5);
    const deadline = Date.now() + 60_000;
    let lastLog = 0;
    for (;;) {
      const p = await progress();
      if (p.committed >= p.end) break;
      if (!second.alive) throw new Error(`tracker #2 exited early (${JSON.stringify(await second.exited)}); stderr:\n${second.stderr}`);
      if (Date.now() > deadline) throw new Error(`the group committed only ${p.committed} of ${p.end} within 60 s; tracker #2 last: ${JSON.stringify(second.last())}`);
      if (Date.now() - lastLog > 2000) {
        lastLog = Date.now();
        log(`${took()}: tracker #2 catching up: committed ${p.committed}/${p.end}, last ${JSON.stringify(second.last())}`);
      }
      await sleep(200);
    }
    const secondExit = await second.stop("SIGTERM", 30_000);
    expect(secondExit).toEqual({ code: 0, signal: null });
    const closed2 = second.last("closed");
    expect(closed2).toBeDefined();
    const processed2 = closed2!.positions ?? 0;
    const reprocessed = historyAfterKill - afterKill.committed;
    log(
      `${took()}: tracker #2 closed after processing ${processed2} positions (${closed2!.inserted} history rows); ` +
        `${reprocessed} of them were already in history from tracker #1 (redelivered after the kill)`,
    );
    // Tracker #2 starts at the committed offsets: it handles at least everything after them.
    expect(processed2).toBeGreaterThanOrEqual(N - afterKill.committed);
    // Rows written twice in total (by both trackers), collapsed on read.
    expect(historyAfterKill + (closed2!.inserted ?? 0)).toBeGreaterThan(N);

    // 4. What reads see: each acked position exactly once, as a crash-free run would have written it.
    const expected = new Map<number, HistoryRow>();
    const expectedLatest = new Map<number, LiveState>();
    for (const [d, device] of devices.entries()) {
      let state: LiveState | undefined;
      let prev: RawPosition | undefined;
      for (const raw of tracks[d]!) {
        // A crash-free pass: each fix follows the one before it.
        const out = enrichPosition(raw, device, state, prev);
        prev = raw;
        state = out.state;
        expected.set(raw.id, out.history);
      }
      expectedLatest.set(device.id, state!);
    }

    const { total, rows } = await withHistory(async (h) => {
      const all: HistoryRow[] = [];
      for (const device of devices) all.push(...(await h.query({ deviceId: device.id, fromMs: 0, toMs: Date.UTC(2100, 0, 1) })));
      return { total: await h.count(), rows: all };
    });
    expect(total).toBe(N);
    expect(rows).toHaveLength(N);
    const seen = new Map<number, number>();
    for (const r of rows) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
    const duplicated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    const unknown = [...seen.keys()].filter((id) => !expected.has(id));
    const missing = [...expected.keys()].filter((id) => !seen.has(id));
    expect({ duplicated: duplicated.slice(0, 10), unknown: unknown.slice(0, 10), missing: missing.slice(0, 10) }).toEqual({ duplicated: [], unknown: [], missing: [] });
    console.log(`[reliability] tracker_kill acked=${N} stored=${seen.size} lost=${missing.length} duplicates=${duplicated.length} redelivered=${reprocessed} recovery_s=${recoverySeconds.toFixed(1)}`);

    afterRestart = { rows, expected, idsAfterKill };

    // Live state: the replay of older positions left each device on its newest fix and odometer.
    const live = createRedisLive({ url: redis.url, keyPrefix: redis.keyPrefix });
    try {
      const states = await live.getStates(devices.map((d) => d.id));
      for (const device of devices) {
        const want = expectedLatest.get(device.id)!;
        const got = states.get(device.id);
        expect(got?.positionId, `device ${device.id} latest position`).toBe(want.positionId);
        expect(got?.odometerKm, `device ${device.id} odometer`).toBeCloseTo(want.odometerKm, 6);
      }
    } finally {
      await live.close();
    }
    log(`${took()}: history holds ${N} distinct positions, each once; live state on the newest fix of every device`);
  });

  // A replayed fix older than the device's live tail takes its predecessor from the batch
  // or from history, so the row written again equals the first one (ReplacingMergeTree
  // keeps the last inserted version, so a different one would silently win).
  it("after the restart every history row is the row a crash-free run writes", ({ skip }) => {
    if (!afterRestart) return skip("the crash test above did not get this far");
    const { rows, expected, idsAfterKill } = afterRestart;
    // Same device, time, units and distance as the one crash-free pass computes.
    const differing = rows
      .map((r) => ({ got: r, want: expected.get(r.id)! }))
      .filter(({ got, want }) => got.deviceId !== want.deviceId || got.fixTime !== want.fixTime || got.speedKmh !== want.speedKmh || got.distanceKm !== want.distanceKm);
    if (differing.length > 0) {
      const ex = differing[0]!;
      const rewritten = differing.filter((d) => idsAfterKill.has(d.got.id)).length;
      const fields = ["deviceId", "fixTime", "speedKmh", "distanceKm"] as const;
      const byField = fields.map((f) => `${f}: ${differing.filter((d) => d.got[f] !== d.want[f]).length}`).join(", ");
      log(
        `${differing.length} history rows differ from a crash-free run (${byField}); ${rewritten} of them were written by tracker #1 ` +
          `and again after the restart, ${differing.length - rewritten} only after the restart. E.g. id ${ex.got.id}: distanceKm ${ex.got.distanceKm} instead of ${ex.want.distanceKm}`,
      );
    }
    expect(differing.length, "history rows that differ from a crash-free run").toBe(0);
  });
});
