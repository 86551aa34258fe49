/**
 * Crash test: kill the rules service while it consumes, restart it, and the events table
 * holds exactly the events of a run that was never interrupted: none twice, none lost.
 *
 * The same tracks go to two topics. A reference run in this process reads one of them
 * without interruption into a database of its own; on the other, a rules service in a child
 * process (rules-child.ts, the production adapters: Kafka, Postgres, Redis) is SIGKILLed
 * mid-stream and a second one finishes the topic on the same group, database and key prefix.
 * The two databases are seeded alike, in the same order, so their ids match and the two
 * event lists can be compared field by field.
 *
 * Two knobs of the child make the kill land where it matters. Its fetches are kept to about
 * one record batch per partition (the tracks are produced ROUND fixes per device at a time),
 * so each device's track comes in many batches and the kill falls mid-track; and each rule
 * state write is acknowledged 300 ms late, so the kill falls between "events recorded and
 * state stored" and "offset committed" (a kill on a timer almost never does), after which
 * the batch is delivered again to a state that already reflects it.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
// The bus port has no admin side: the group's committed offsets are read with kafkajs itself.
import { Kafka, logLevel, type Admin } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaBus, type Bus } from "@fleet/bus";
import type { EnrichedPosition } from "@fleet/contracts";
import { createAlert, createDevice, createGeofence, createUser, openDb, pageUserEvents, type DbHandle, type EventRow, type LatLng } from "@fleet/db";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { ScriptChild, describeChildren, groupProgress, hasService, kafkaTest, redisTest, seededRandom, sleep, tempPostgresDb, waitFor } from "@fleet/testkit";
import { startRules, type Rules } from "../src/service.js";
import { T0, alertValues, silent } from "./fixture.js";

const DEVICES = 10;
const PER_DEVICE = 500;
const N = DEVICES * PER_DEVICE;
const PARTITIONS = 12;
/** Positions per device in one produce call: a partition's record batches stay this small, and so do the child's fetches. */
const ROUND = 50;
/** The children fetch at most this much per partition (about one record batch), so a device's track comes in many batches. */
const FETCH_BYTES_PER_PARTITION = 8192;
/** Child #1 is killed at the first rule state write after this many positions went all the way through it. */
const KILL_AFTER_SEEN = Math.floor(N / 3);

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const childPath = fileURLToPath(new URL("./rules-child.ts", import.meta.url));
const log = (line: string) => console.log(`[rules-crash] ${line}`);

interface ChildEvent {
  event: "ready" | "stored" | "stats" | "closed";
  seen?: number;
  recorded?: number;
  devices?: number[];
}

/** A rules child process (see ScriptChild). */
type RulesChild = ScriptChild<ChildEvent>;

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Two squares side by side on the devices' road, west and east; the road runs from west of the one to east of the other. */
const LAT_MIN = 54.6;
const LAT_MAX = 54.62;
const WEST = { lngMin: 25.0, lngMax: 25.03 };
const EAST = { lngMin: 25.05, lngMax: 25.08 };
const ROAD = { lngMin: 24.98, lngMax: 25.1 };
const square = (lngMin: number, lngMax: number): LatLng[] => [
  { lat: LAT_MIN, lng: lngMin },
  { lat: LAT_MIN, lng: lngMax },
  { lat: LAT_MAX, lng: lngMax },
  { lat: LAT_MAX, lng: lngMin },
  { lat: LAT_MIN, lng: lngMin },
];

interface SeededDevice {
  id: number;
  imei: string;
}

/**
 * PER_DEVICE enriched fixes 10 s apart per device, driving back and forth along its own lane
 * through both squares: spells of cruising (under 90 km/h), speeding (over it) and stops,
 * some longer than 5 minutes. Ids unique across the run.
 */
function makeTracks(devices: readonly SeededDevice[], userId: number): EnrichedPosition[][] {
  const rnd = seededRandom(0x5eed_c4a5);
  return devices.map((device, d) => {
    const lane = LAT_MIN + 0.002 + d * 0.0017;
    let lng = ROAD.lngMin + rnd() * (ROAD.lngMax - ROAD.lngMin);
    let dir = rnd() < 0.5 ? 1 : -1;
    const kmPerDegree = 111.32 * Math.cos((lane * Math.PI) / 180);
    const track: EnrichedPosition[] = [];
    while (track.length < PER_DEVICE) {
      const r = rnd();
      const kind = r < 0.22 ? "stop" : r < 0.44 ? "fast" : "cruise";
      const length = kind === "stop" ? (rnd() < 0.7 ? 32 + Math.floor(rnd() * 14) : 5 + Math.floor(rnd() * 16)) : kind === "fast" ? 6 + Math.floor(rnd() * 20) : 8 + Math.floor(rnd() * 30);
      const base = kind === "fast" ? 95 + rnd() * 25 : 35 + rnd() * 45;
      const engineOn = kind !== "stop" || rnd() < 0.5;
      for (let k = 0; k < length && track.length < PER_DEVICE; k++) {
        const i = track.length;
        const speedKmh = kind === "stop" ? 0 : round(Math.min(kind === "fast" ? 130 : 88, Math.max(kind === "fast" ? 91 : 20, base + (rnd() - 0.5) * 6)), 1);
        const km = i === 0 ? 0 : (speedKmh * 10) / 3600;
        lng += (dir * km) / kmPerDegree;
        if (lng > ROAD.lngMax) dir = -1;
        if (lng < ROAD.lngMin) dir = 1;
        const fixTime = T0 + i * 10_000;
        track.push({
          id: 2_000_000 + d * PER_DEVICE + i,
          uniqueId: device.imei,
          deviceId: device.id,
          userIds: [userId],
          protocol: "osmand",
          latitude: round(lane + (rnd() - 0.5) * 0.0004, 6),
          longitude: round(lng, 6),
          altitude: round(120 + rnd() * 40, 1),
          course: dir > 0 ? 90 : 270,
          speedKmh,
          distanceKm: round(km, 6),
          fixTime,
          serverTime: fixTime + 500 + Math.floor(rnd() * 1000),
          attributes: { ignition: engineOn, motion: speedKmh > 0, power: round(12 + rnd() * 2, 2) },
          latest: true,
          engineOn,
          moving: speedKmh > 0,
        });
      }
    }
    return track;
  });
}

/** What an event is, without the row's own id and timestamps: equal in both runs when the runs agree. */
const eventKey = (e: EventRow) => JSON.stringify([e.type, e.deviceId, e.alertId, e.geofenceId, e.positionId, e.time.getTime(), e.message]);

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(key(item), (out.get(key(item)) ?? 0) + 1);
  return out;
}

// Needs the real Kafka, Postgres and Redis. Without them (a machine where infra/up.sh has not
// run) it is skipped; in CI global setup has already failed the run.
describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("rules crash and restart", () => {
  const kafka = kafkaTest("rules-crash");
  const refRedis = redisTest("rules-crash-ref");
  const redis = redisTest("rules-crash");
  const refTopic = kafka.topic("enriched-ref");
  const topic = kafka.topic("enriched");
  const noticesTopic = kafka.topic("notices");
  const deadTopic = kafka.topic("dead");
  const commandsTopic = kafka.topic("commands");
  const refGroupId = kafka.groupId("rules-ref");
  const groupId = kafka.groupId("rules");
  const children: RulesChild[] = [];
  const pgs: Awaited<ReturnType<typeof tempPostgresDb>>[] = [];
  let refDb: DbHandle | undefined;
  let db: DbHandle | undefined;
  let refLive: LiveStore | undefined;
  let bus: Bus | undefined;
  let reference: Rules | undefined;
  let admin: Admin | undefined;
  let crashUrl = "";
  let userId = 0;
  const devices: SeededDevice[] = [];

  /** One user, DEVICES devices, two squares and the alerts watching every device; the same ids in every database seeded this way. */
  async function seed(handle: DbHandle) {
    const user = await createUser(handle.db, { email: "crash@rules.test", password: "crash-secret" });
    const deviceIds: number[] = [];
    for (let d = 0; d < DEVICES; d++) deviceIds.push((await createDevice(handle.db, user.id, { name: `van ${d + 1}`, imei: String(356_938_035_643_900 + d) })).id);
    const geofenceIds: number[] = [];
    for (const [name, { lngMin, lngMax }] of [
      ["West yard", WEST],
      ["East yard", EAST],
    ] as const) {
      geofenceIds.push((await createGeofence(handle.db, user.id, { name, type: "polygon", polygonColor: "#d000df", coordinates: square(lngMin, lngMax), center: null, radius: null })).id);
    }
    const alertIds = [
      await createAlert(handle.db, user.id, alertValues({ type: "geofence_inout", geofences: geofenceIds, devices: deviceIds })),
      await createAlert(handle.db, user.id, alertValues({ type: "overspeed", attributes: { overspeed: 90 }, devices: deviceIds })),
      await createAlert(handle.db, user.id, alertValues({ type: "stop_duration", attributes: { stop_duration: 5 }, devices: deviceIds })),
    ];
    return { userId: user.id, deviceIds, geofenceIds, alertIds };
  }

  beforeAll(async () => {
    const [refPg, crashPg] = await Promise.all([tempPostgresDb(), tempPostgresDb()]);
    pgs.push(refPg, crashPg);
    crashUrl = crashPg.url;
    refDb = await openDb({ databaseUrl: refPg.url, dataDir: os.tmpdir() });
    db = await openDb({ databaseUrl: crashPg.url, dataDir: os.tmpdir() });
    await Promise.all([refDb.migrate(), db.migrate()]);
    const [refSeed, crashSeed] = [await seed(refDb), await seed(db)];
    // The comparison of the two runs' events relies on it.
    expect(crashSeed).toEqual(refSeed);
    userId = refSeed.userId;
    refSeed.deviceIds.forEach((id, d) => devices.push({ id, imei: String(356_938_035_643_900 + d) }));
    refLive = createRedisLive({ url: refRedis.url, keyPrefix: refRedis.keyPrefix });
    bus = createKafkaBus({ brokers: kafka.brokers, clientId: "rules-crash-test", logger: silent });
    await bus.ensureTopics([refTopic, topic, noticesTopic, deadTopic, commandsTopic], PARTITIONS);
    admin = new Kafka({ clientId: "rules-crash-admin", brokers: kafka.brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
  }, 120_000);

  afterAll(async () => {
    // Children first (even after a failure): a live member would keep the group from being deleted.
    await Promise.all(children.map((c) => c.stop("SIGKILL", 5000).catch(() => undefined)));
    await reference?.close().catch(() => undefined);
    await admin?.disconnect().catch(() => undefined);
    await bus?.close().catch(() => undefined);
    await refLive?.close().catch(() => undefined);
    await Promise.all([refDb?.close(), db?.close()].map((p) => p?.catch(() => undefined)));
    await kafka.cleanup();
    await Promise.all([refRedis.cleanup(), redis.cleanup()]);
    await Promise.all(pgs.map((p) => p.cleanup()));
  });

  const progress = () => groupProgress(admin!, groupId, topic);

  const userEvents = async (handle: DbHandle): Promise<EventRow[]> => {
    const { total, rows } = await pageUserEvents(handle.db, userId, {}, { limit: 10_000, offset: 0 });
    expect(rows).toHaveLength(total);
    return rows;
  };

  function startChild(name: string, extraEnv: Record<string, string> = {}): RulesChild {
    const child = new ScriptChild<ChildEvent>(name, childPath, {
      KAFKA_BROKERS: kafka.brokers.join(","),
      DATABASE_URL: crashUrl,
      REDIS_URL: redis.url,
      DATA_DIR: os.tmpdir(),
      LOG_LEVEL: "warn",
      CRASH_TOPIC: topic,
      CRASH_GROUP_ID: groupId,
      CRASH_NOTICES_TOPIC: noticesTopic,
      CRASH_DEAD_TOPIC: deadTopic,
      CRASH_COMMANDS_TOPIC: commandsTopic,
      CRASH_REDIS_KEY_PREFIX: redis.keyPrefix,
      CRASH_FETCH_BYTES_PER_PARTITION: String(FETCH_BYTES_PER_PARTITION),
      ...extraEnv,
    }, repoRoot);
    children.push(child);
    return child;
  }

  it("kill -9 mid-stream, restart: the events are exactly those of an uninterrupted run", { timeout: 180_000 }, async ({ onTestFailed }) => {
    onTestFailed(() => console.error(describeChildren(children)));
    const t0 = Date.now();
    const took = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

    // 1. The same tracks on both topics. One plain record per position (@fleet/bus packs a send
    // per partition, and the rules service reads both), so the group's offsets count positions.
    const tracks = makeTracks(devices, userId);
    const producer = new Kafka({ clientId: "rules-crash-producer", brokers: kafka.brokers, logLevel: logLevel.NOTHING }).producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      for (let i = 0; i < PER_DEVICE; i += ROUND) {
        const messages = tracks.flatMap((t) => t.slice(i, i + ROUND)).map((p) => ({ key: p.uniqueId, value: JSON.stringify(p) }));
        for (const t of [refTopic, topic]) await producer.send({ topic: t, acks: -1, messages });
      }
    } finally {
      await producer.disconnect();
    }
    expect((await progress()).end).toBe(N);
    log(`${took()}: produced ${N} positions for ${DEVICES} devices to ${refTopic} and ${topic}`);

    // 2. The reference: one uninterrupted run in this process.
    reference = await startRules({ bus: bus!, db: refDb!.db, live: refLive!, logger: silent, topic: refTopic, groupId: refGroupId, fromBeginning: true, noticesTopic, deadTopic, commandsTopic, sweepEveryMs: 3_600_000 });
    await waitFor(`the reference run to handle ${N} positions`, () => reference!.seen() >= N, 60_000, 50);
    expect(reference.seen()).toBe(N);
    const refRecorded = reference.recorded();
    await reference.close();
    reference = undefined;
    const want = await userEvents(refDb!);
    const wantTypes = Object.fromEntries(countBy(want, (e) => e.type));
    log(`${took()}: reference run recorded ${want.length} events: ${JSON.stringify(wantTypes)}`);
    expect(refRecorded).toBe(want.length);
    // Enough of each kind that the comparison below means something.
    for (const [type, least] of [
      ["geofence_in", 100],
      ["geofence_out", 100],
      ["overspeed", 30],
      ["stop_duration", 15],
    ] as const) {
      expect(wantTypes[type] ?? 0, `${type} events in the reference run`).toBeGreaterThanOrEqual(least);
    }

    // 3. Child #1, killed at a rule state write once a third of the positions went through: that
    // batch's events and state are stored, its offsets not committed (the write's acknowledgement
    // is held back 300 ms), and whatever else is in flight is lost.
    const first = startChild("rules #1", { CRASH_STATE_ACK_DELAY_MS: "300" });
    await first.waitFor("ready", (e) => e.event === "ready", 30_000);
    log(`${took()}: rules #1 joined`);
    await first.waitFor(`stats with seen >= ${KILL_AFTER_SEEN}`, (e) => e.event === "stats" && (e.seen ?? 0) >= KILL_AFTER_SEEN, 60_000);
    const statsAt = first.events.length;
    const atKill = await first.waitFor("a rule state write after that", (e) => e.event === "stored" && first.events.indexOf(e) >= statsAt, 30_000);
    first.kill("SIGKILL");
    const killedAt = Date.now();
    const firstExit = await first.exited;
    expect(firstExit.signal).toBe("SIGKILL");
    const reported1 = first.last("stats")!;
    const batches1 = first.events.filter((e) => e.event === "stored").length;
    const afterKill = await progress();
    const eventsAfterKill = (await userEvents(db!)).length;
    log(
      `${took()}: killed rules #1 at a state write (${JSON.stringify(atKill)}) after ${batches1} of them; it last reported seen=${reported1.seen} recorded=${reported1.recorded}; ` +
        `the crash database holds ${eventsAfterKill} events, the group committed ${afterKill.committed} of ${afterKill.end}`,
    );
    // The kill really landed mid-stream, and mid-track: batches were small.
    expect(afterKill.committed).toBeGreaterThan(0);
    expect(afterKill.committed).toBeLessThan(N);
    expect(batches1).toBeGreaterThan(DEVICES);

    // 4. Child #2 on the same group, database and key prefix, until the group has committed the whole topic.
    const second = startChild("rules #2");
    await second.waitFor("ready", (e) => e.event === "ready", 40_000);
    log(`${took()}: rules #2 joined ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);
    const deadline = Date.now() + 60_000;
    let lastLog = 0;
    for (;;) {
      const p = await progress();
      if (p.committed >= p.end) break;
      if (!second.alive) throw new Error(`rules #2 exited early (${JSON.stringify(await second.exited)}); stderr:\n${second.stderr}`);
      if (Date.now() > deadline) throw new Error(`the group committed only ${p.committed} of ${p.end} within 60 s; rules #2 last: ${JSON.stringify(second.last())}`);
      if (Date.now() - lastLog > 2000) {
        lastLog = Date.now();
        log(`${took()}: rules #2 catching up: committed ${p.committed}/${p.end}, last stats ${JSON.stringify(second.last("stats") ?? null)}`);
      }
      await sleep(200);
    }
    // Committed means handled; wait for its counters to settle all the same.
    await waitFor(
      "rules #2's stats to settle",
      () => {
        const stats = second.events.filter((e) => e.event === "stats").slice(-4);
        return stats.length === 4 && stats.every((s) => s.seen === stats[0]!.seen && s.recorded === stats[0]!.recorded);
      },
      30_000,
      100,
    );
    const secondExit = await second.stop("SIGTERM", 30_000);
    expect(secondExit).toEqual({ code: 0, signal: null });
    const closed2 = second.last("closed");
    expect(closed2).toBeDefined();
    log(`${took()}: rules #2 closed after handling ${closed2!.seen} positions and recording ${closed2!.recorded} events`);
    // Rules #2 starts at the committed offsets: it handles at least everything after them.
    expect(closed2!.seen).toBeGreaterThanOrEqual(N - afterKill.committed);

    // 5. The events, compared with the reference's as multisets: none twice, none missing, none extra.
    const got = await userEvents(db!);
    const dedupe = countBy(got, (e) => e.dedupeKey);
    const twiceByKey = [...dedupe].filter(([, n]) => n > 1).map(([k]) => k);
    const wantBy = countBy(want, eventKey);
    const gotBy = countBy(got, eventKey);
    const duplicated = [...gotBy].filter(([k, n]) => n > (wantBy.get(k) ?? 0) && wantBy.has(k)).map(([k]) => k);
    const extra = [...gotBy.keys()].filter((k) => !wantBy.has(k));
    const missing = [...wantBy].filter(([k, n]) => (gotBy.get(k) ?? 0) < n).map(([k]) => k);
    log(
      `${took()}: crash run recorded ${got.length} events (${JSON.stringify(Object.fromEntries(countBy(got, (e) => e.type)))}); ` +
        `reference ${want.length}; duplicated ${duplicated.length}, extra ${extra.length}, missing ${missing.length}`,
    );
    if (duplicated.length + extra.length + missing.length > 0) {
      // Where each difference sits on its device's track, and which batches were in flight at the kill.
      const where = (key: string) => {
        const [type, deviceId, , , positionId] = JSON.parse(key) as [string, number, number, number, number];
        const d = devices.findIndex((x) => x.id === deviceId);
        const i = positionId - 2_000_000 - d * PER_DEVICE;
        return `${type} on device ${deviceId} at fix #${i} (batch of fixes #${i - (i % ROUND)}..#${i - (i % ROUND) + ROUND - 1})`;
      };
      for (const [what, keys] of [
        ["duplicated", duplicated],
        ["extra", extra],
        ["missing", missing],
      ] as const) {
        for (const k of keys.slice(0, 20)) log(`  ${what}: ${where(k)}  ${k}`);
      }
      log(`  rules #1's last state writes before the kill: ${first.events.filter((e) => e.event === "stored").slice(-8).map((e) => JSON.stringify(e.devices)).join(" ")}`);
    }
    expect({ twiceByKey: twiceByKey.slice(0, 10), duplicated: duplicated.slice(0, 10), extra: extra.slice(0, 10), missing: missing.slice(0, 10) }).toEqual({
      twiceByKey: [],
      duplicated: [],
      extra: [],
      missing: [],
    });
    expect(got).toHaveLength(want.length);
    console.log(`[reliability] rules_kill positions=${N} events=${want.length} stored=${got.length} lost=${missing.length} duplicates=${duplicated.length} extra=${extra.length}`);
  });
});
