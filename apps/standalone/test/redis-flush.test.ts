/**
 * Redis flushed under load, on the distributed stack: Kafka (shared broker, this test's own
 * topics), PostgreSQL, a Redis server of this test's own (FLUSHALL is real), chDB history.
 * Tracker and API share this process around one chDB session, as DESIGN.md says such a test
 * must. Redis is flushed twice while positions flow: after the first the live list shows every
 * device at once (the API restores), after the second nobody lists and the tracker restores
 * each device before its next position; each virtual odometer continues from where it was.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiApp, apiServerOptions, busDeadLetters, createBusCommandQueue } from "@fleet/api";
import { createKafkaBus, type Bus, type BusProducer } from "@fleet/bus";
import type { RawPosition } from "@fleet/contracts";
import { createDevice, createUser, openDb, type DbHandle, type User } from "@fleet/db";
import { createChdbHistory, type HistoryStore } from "@fleet/history";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { hasService, kafkaTest, privateRedis, sleep, tempChdbDir, tempPostgresDb, waitFor, type PrivateRedis } from "@fleet/testkit";
import { startTracker, type Tracker } from "@fleet/tracker";

const silent = pino({ level: "silent" });
const DEVICES = 10;
const STEPS_BEFORE = 60;
const STEPS_AFTER = 120;
/** Each step moves a device about 111 m north. */
const STEP_DEG = 0.001;
const T0 = Date.now() - 3 * 3_600_000;

interface Item {
  id: number;
  time: string;
  timestamp: number;
  lat: number;
  lng: number;
  sensors: { name: string; value: string }[];
}

describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("Redis flushed under load", () => {
  const kafka = kafkaTest("redis-flush");
  const raw = kafka.topic("raw");
  let redis: PrivateRedis;
  let pg: Awaited<ReturnType<typeof tempPostgresDb>>;
  let chdb: Awaited<ReturnType<typeof tempChdbDir>>;
  let db: DbHandle;
  let history: HistoryStore;
  let live: LiveStore;
  let bus: Bus;
  let producer: BusProducer;
  let tracker: Tracker;
  let app: FastifyInstance;
  let user: User;
  const devices: { id: number; imei: string }[] = [];

  beforeAll(async () => {
    redis = await privateRedis();
    pg = await tempPostgresDb();
    chdb = await tempChdbDir();
    db = await openDb({ databaseUrl: pg.url, dataDir: chdb.path });
    await db.migrate();
    history = createChdbHistory({ path: chdb.path });
    await history.migrate();
    live = createRedisLive({ url: redis.url });
    bus = createKafkaBus({ brokers: kafka.brokers, clientId: "redis-flush", logger: silent });
    await bus.ensureTopics([raw], 12);
    producer = await bus.producer();
    user = await createUser(db.db, { email: "flush@reliability.test", password: "flush-secret" });
    for (let d = 0; d < DEVICES; d++) {
      const imei = String(356_938_035_700_000 + d);
      devices.push({ id: (await createDevice(db.db, user.id, { name: `van ${d + 1}`, imei })).id, imei });
    }
    // A tracker that keeps no states between batches, as one that has just taken the partitions
    // over: after the second flush it must restore each state from history. (One that kept them
    // writes them back with the next position; apps/tracker/src/pipeline.test.ts.)
    tracker = await startTracker({ bus, db: db.db, history, live, logger: silent, flushRows: 2000, flushMs: 50, partitionsConcurrently: 12, deviceSyncMs: 500, keptStates: 0, topic: raw, enrichedTopic: kafka.topic("enriched"), deadTopic: kafka.topic("dead"), groupId: kafka.groupId("tracker") });
    app = Fastify(apiServerOptions());
    await app.register(apiApp, { prefix: "/api", db: db.db, live, history, commands: createBusCommandQueue({ producer, topic: kafka.topic("commands") }), deadLetters: busDeadLetters(bus, producer), settings: { offlineAfterMs: 24 * 3_600_000, version: "test" } });
  });

  afterAll(async () => {
    await app?.close();
    await tracker?.close();
    await producer?.close();
    await bus?.close();
    await Promise.all([history?.close(), live?.close(), db?.close()]);
    await Promise.all([redis?.stop(), pg?.cleanup(), chdb?.cleanup(), kafka.cleanup()]);
  });

  const position = (d: number, step: number): RawPosition => ({
    id: 9_000_000 + d * 10_000 + step,
    uniqueId: devices[d]!.imei,
    protocol: "osmand",
    latitude: 54 + d * 0.1 + step * STEP_DEG,
    longitude: 25,
    altitude: 100,
    course: 0,
    speed: 20,
    fixTime: T0 + step * 10_000,
    serverTime: T0 + step * 10_000 + 300,
    attributes: {},
  });

  /** Sends steps [from, to) of every device, `perSend` steps at a time, `pauseMs` apart. */
  async function drive(from: number, to: number, perSend: number, pauseMs: number): Promise<void> {
    for (let step = from; step < to; step += perSend) {
      const messages = [];
      for (let s = step; s < Math.min(to, step + perSend); s++) for (let d = 0; d < DEVICES; d++) messages.push({ key: devices[d]!.imei, value: JSON.stringify(position(d, s)) });
      await producer.send(raw, messages, { timeoutMs: 10_000 });
      await sleep(pauseMs);
    }
  }

  async function listed(): Promise<Map<number, Item>> {
    const res = await app.inject({ method: "GET", url: "/api/get_devices", query: { lang: "en", user_api_hash: user.apiHash } });
    expect(res.statusCode, res.body).toBe(200);
    const groups = res.json<{ items: Item[] }[]>();
    return new Map(groups.flatMap((g) => g.items).map((i) => [i.id, i]));
  }

  const odometer = (item: Item | undefined) => Number.parseFloat(item?.sensors.find((s) => s.name === "Odometer")?.value ?? "NaN");
  const stored = async () => history.count({ fromMs: T0, toMs: T0 + 86_400_000 });

  it("keeps every device on the live list and every odometer counting", { timeout: 120_000 }, async () => {
    for (const d of devices) {
      const res = await app.inject({
        method: "POST",
        url: "/api/add_sensor",
        query: { lang: "en", user_api_hash: user.apiHash, device_id: String(d.id) },
        payload: { device_id: d.id, sensor_type: "odometer", sensor_name: "Odometer", unit_of_measurement: "", show_in_popup: 1, odometer_value_by: "virtual_odometer", odometer_value: "1000" },
      });
      expect(res.statusCode, res.body).toBe(200);
    }

    await drive(0, STEPS_BEFORE, 5, 20);
    await waitFor("the first drive stored", async () => (await stored()) === DEVICES * STEPS_BEFORE, 30_000, 100);
    await waitFor("the first drive in the live list", async () => [...(await listed()).values()].every((i) => i.timestamp === Math.floor((T0 + (STEPS_BEFORE - 1) * 10_000) / 1000)), 30_000, 100);
    const before = await listed();
    for (const d of devices) expect(odometer(before.get(d.id))).toBeGreaterThan(1000 + (STEPS_BEFORE - 2) * 0.1);

    // Under load: the second drive is flowing when Redis loses everything.
    const driving = drive(STEPS_BEFORE, STEPS_BEFORE + STEPS_AFTER, 2, 50);
    await sleep(400);
    await redis.flushAll();
    const afterFlush = await listed();
    const shownAfterFlush = devices.filter((d) => {
      const item = afterFlush.get(d.id);
      return item !== undefined && item.time !== "-" && item.timestamp >= before.get(d.id)!.timestamp;
    }).length;
    // Right after the flush, before the devices report again: each at a stored position at least as new as before.
    expect(shownAfterFlush).toBe(DEVICES);
    // Once more, with no one listing: the tracker finds no state and restores it before the next position.
    await sleep(1500);
    await redis.flushAll();
    await driving;

    const total = DEVICES * (STEPS_BEFORE + STEPS_AFTER);
    await waitFor("the second drive stored", async () => (await stored()) === total, 60_000, 100);
    const lastStep = STEPS_BEFORE + STEPS_AFTER - 1;
    await waitFor("the second drive in the live list", async () => [...(await listed()).values()].every((i) => i.timestamp === Math.floor((T0 + lastStep * 10_000) / 1000)), 30_000, 100);
    const after = await listed();

    expect(tracker.pipeline.stats().restored).toBeGreaterThanOrEqual(DEVICES);
    let worst = 0;
    for (const [d, device] of devices.entries()) {
      const rows = await history.query({ deviceId: device.id, fromMs: T0, toMs: T0 + 86_400_000 });
      const driven = rows.reduce((km, r) => km + r.distanceKm, 0);
      const item = after.get(device.id)!;
      expect(item.lat).toBeCloseTo(position(d, lastStep).latitude, 6);
      // The sensor shows two decimals; it continues from where it was, within one position's distance.
      const error = Math.abs(odometer(item) - (1000 + driven));
      worst = Math.max(worst, error);
      expect(error, `device ${device.id}: odometer ${odometer(item)} km, driven ${driven} km`).toBeLessThan(STEP_DEG * 111.2);
    }
    console.log(
      `[reliability] redis_flush devices=${DEVICES} positions=${total} stored=${await stored()} listed_after_flush=${shownAfterFlush}/${DEVICES} ` +
        `restored_by_tracker=${tracker.pipeline.stats().restored} odometer_max_error_km=${worst.toFixed(3)}`,
    );
  });
});
