/**
 * Poison messages on real Kafka, PostgreSQL and Redis (chDB for history): positions that can
 * never be processed go to the dead-letter topic with their origin, every other position of
 * their partition is stored, the group's lag returns to 0, and the consumer never restarts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaBus, partitionForKey, type Bus, type BusProducer } from "@fleet/bus";
import type { DeadLetter, RawPosition } from "@fleet/contracts";
import { createDevice, createUser, openDb, type DbHandle } from "@fleet/db";
import { createChdbHistory, type HistoryStore } from "@fleet/history";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { hasService, kafkaTest, redisTest, tempChdbDir, tempPostgresDb, uniqueSuffix, waitFor } from "@fleet/testkit";
// The bus port has no admin side: the group's committed offsets are read with kafkajs itself.
import { Kafka, logLevel } from "kafkajs";
import { startTracker, type Tracker } from "../src/index.js";

const PARTITIONS = 12;
const T0 = Date.now() - 3_600_000;

describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("poison messages on the distributed stack", () => {
  const k = kafkaTest("dead");
  const r = redisTest("dead");
  const raw = k.topic("raw");
  const dead = k.topic("dead");
  const groupId = k.groupId("tracker");
  const logs: { level: string; msg: string }[] = [];
  const record = (level: string) => (_obj: object, msg?: string) => void logs.push({ level, msg: msg ?? "" });
  const logger = { info: record("info"), warn: record("warn"), error: record("error") };

  let pg: Awaited<ReturnType<typeof tempPostgresDb>>;
  let chdb: Awaited<ReturnType<typeof tempChdbDir>>;
  let db: DbHandle;
  let history: HistoryStore;
  let live: LiveStore;
  let bus: Bus;
  let producer: BusProducer;
  let tracker: Tracker;

  beforeAll(async () => {
    pg = await tempPostgresDb();
    db = await openDb({ databaseUrl: pg.url, dataDir: "unused" });
    await db.migrate();
    chdb = await tempChdbDir();
    history = createChdbHistory({ path: chdb.path });
    await history.migrate();
    live = createRedisLive({ url: r.url, keyPrefix: r.keyPrefix });
    bus = createKafkaBus({ brokers: k.brokers, clientId: "dead-letter-test", logger, consumer: { sessionTimeout: 6_000, heartbeatInterval: 300, maxWaitTimeInMs: 100 } });
    await bus.ensureTopics([raw, dead], PARTITIONS);
    producer = await bus.producer();
  });

  afterAll(async () => {
    await tracker?.close();
    await producer?.close();
    await bus?.close();
    await Promise.all([history?.close(), live?.close(), db?.close()]);
    await Promise.all([pg?.cleanup(), chdb?.cleanup(), r.cleanup(), k.cleanup()]);
  });

  it("dead-letters the bad positions, stores every other one of their partition, and the group catches up", async () => {
    const user = await createUser(db.db, { email: `dead-${uniqueSuffix()}@example.com`, password: "secret-pw-1" });
    // Eight devices whose positions all land in one partition, the one the poison shares.
    const imeis: string[] = [];
    const base = `86${Date.now()}`.slice(0, 13);
    const target = partitionForKey(`${base}00`, PARTITIONS);
    for (let n = 0; imeis.length < 8; n++) {
      const imei = `${base}${String(n).padStart(2, "0")}`;
      if (partitionForKey(imei, PARTITIONS) === target) imeis.push(imei);
    }
    const devices = [];
    for (const imei of imeis) devices.push(await createDevice(db.db, user.id, { name: imei, imei, iconId: 1, fuelMeasurementId: 1, tailLength: 5, minMovingSpeed: 6, minFuelFillings: 10, minFuelThefts: 10 }));

    let id = Date.now() * 1000;
    const position = (imei: string, i: number, attributes: RawPosition["attributes"] = {}): RawPosition => ({ id: ++id, uniqueId: imei, protocol: "osmand", latitude: 54.2 + i * 1e-4, longitude: 25.2, altitude: 1, course: 1, speed: 1, fixTime: T0 + i * 1000, serverTime: T0 + i * 1000 + 5, attributes });
    const good: RawPosition[] = [];
    const messages: { key: string; value: string }[] = [];
    for (let i = 0; i < 40; i++) {
      for (const imei of imeis) {
        const p = position(imei, i);
        good.push(p);
        messages.push({ key: imei, value: JSON.stringify(p) });
      }
      // The reproduction: an RFID carrying a NUL, which PostgreSQL refuses.
      if (i === 10) messages.push({ key: imeis[0]!, value: JSON.stringify(position(imeis[0]!, i, { rfid: "zz\u0000zz" })) });
      // A fix in the year 287,000: it would pin the live state (nothing later is newer) had it got in.
      if (i === 20) messages.push({ key: imeis[1]!, value: JSON.stringify({ ...position(imeis[1]!, i), fixTime: 9e15 }) });
      // Not a position at all.
      if (i === 30) messages.push({ key: imeis[2]!, value: "{not json" });
    }
    await producer.send(raw, messages, { timeoutMs: 20_000 });

    tracker = await startTracker({ bus, db: db.db, history, live, logger, flushRows: 20_000, flushMs: 50, partitionsConcurrently: 4, deviceSyncMs: 60_000, topic: raw, enrichedTopic: k.topic("enriched"), deadTopic: dead, groupId });

    await waitFor("every good position in history", async () => (await history.count()) === good.length, 60_000, 200);
    await waitFor("three dead letters", async () => (await bus.read(dead)).length === 3, 30_000, 200);
    const letters = (await bus.read(dead)).map((m) => JSON.parse(m.value.toString()) as DeadLetter);
    expect(letters.map((l) => [l.key, l.topic, l.partition, l.groupId])).toEqual(
      expect.arrayContaining([
        [imeis[0], raw, target, groupId],
        [imeis[1], raw, target, groupId],
        [imeis[2], raw, target, groupId],
      ]),
    );
    const byKey = new Map(letters.map((l) => [l.key, l]));
    expect(Buffer.from(byKey.get(imeis[0]!)!.value, "base64").toString()).toContain("zz\\u0000zz");
    expect(Buffer.from(byKey.get(imeis[2]!)!.value, "base64").toString()).toBe("{not json");
    expect(tracker.deadLettered()).toBe(3);

    // Each device's live state is its last good position.
    const states = await live.getStates(devices.map((d) => d.id));
    for (const d of devices) expect(states.get(d.id)?.fixTime).toBe(T0 + 39 * 1000);

    // Lag 0: the group committed up to the partition's end.
    const admin = new Kafka({ clientId: "dead-letter-test-admin", brokers: k.brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      await waitFor("committed offsets at the end of the partition", async () => {
        const ends = await admin.fetchTopicOffsets(raw);
        const [committed] = await admin.fetchOffsets({ groupId, topics: [raw] });
        const at = new Map(committed!.partitions.map((p) => [p.partition, p.offset]));
        return ends.every((e) => e.high === "0" || at.get(e.partition) === e.high);
      });
    } finally {
      await admin.disconnect();
    }
    // The consumer was never restarted: no retry ran out, nothing crashed.
    expect(logs.filter((l) => /^Crash|Restarting the consumer/.test(l.msg))).toEqual([]);
    expect(logs.filter((l) => l.msg.startsWith("message dead-lettered"))).toHaveLength(3);
    console.log(`[reliability] poison positions=${good.length} stored=${await history.count()} lost=${good.length - (await history.count())} dead_lettered=${letters.length} consumer_restarts=0 lag=0`);
  });
});
