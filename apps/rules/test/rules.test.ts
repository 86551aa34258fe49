/**
 * The rules service on the real parts it runs on: enriched positions from Kafka, rule records
 * and events in Postgres, detector memory in Redis. What a user sees is the events table (what
 * get_events lists): each event once, across replays and a restart, and alerts created or
 * changed while it runs take effect after the api's rules.changed notice.
 */
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaBus, type Bus, type BusProducer } from "@fleet/bus";
import type { EnrichedPosition, RulesChanged } from "@fleet/contracts";
import { createAlert, createDevice, createDriver, createGeofence, createUser, createUserMapIcon, openDb, pageUserEvents, type DbHandle } from "@fleet/db";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { hasService, kafkaTest, redisTest, sleep, tempPostgresDb, waitFor } from "@fleet/testkit";
import { startRules, type Rules } from "../src/service.js";
import { T0, alertValues, enrichedAt, sendPositions, silent } from "./fixture.js";

describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("the rules service on Kafka, Postgres and Redis", () => {
  const kafka = kafkaTest("rules");
  const redis = redisTest("rules");
  const topic = kafka.topic("enriched");
  const noticesTopic = kafka.topic("notices");
  const groupId = kafka.groupId("rules");
  let pg: Awaited<ReturnType<typeof tempPostgresDb>>;
  let db: DbHandle;
  let live: LiveStore;
  let bus: Bus;
  let producer: BusProducer;
  let rules: Rules;
  let userId: number;
  let deviceId: number;

  // From the beginning of the test's own topic: a new group starting at the end would race the
  // first sends (Kafka resolves "the end" at the first fetch, after startRules has returned).
  const start = () => startRules({ bus, db: db.db, live, logger: silent, topic, fromBeginning: true, noticesTopic, groupId, deadTopic: kafka.topic("dead") });

  const at = (i: number, over: Partial<EnrichedPosition>) => enrichedAt(i, { deviceId, uniqueId: "rules-imei-1", userIds: [userId], ...over });
  const send = (positions: readonly EnrichedPosition[]) => sendPositions(producer, topic, positions);
  const events = async () => (await pageUserEvents(db.db, userId, {}, { limit: 100, offset: 0 })).rows.sort((a, b) => a.time.getTime() - b.time.getTime() || a.id - b.id);
  const eventCount = async () => (await events()).length;
  const notice = (n: RulesChanged) => producer.send(noticesTopic, [{ key: "rules", value: JSON.stringify(n) }]);

  beforeAll(async () => {
    pg = await tempPostgresDb();
    db = await openDb({ databaseUrl: pg.url, dataDir: tmpdir() });
    await db.migrate();
    live = createRedisLive({ url: redis.url, keyPrefix: redis.keyPrefix });
    bus = createKafkaBus({ brokers: kafka.brokers, clientId: "rules-test", logger: silent });
    await bus.ensureTopics([topic, noticesTopic], 4);
    producer = await bus.producer();
    const user = await createUser(db.db, { email: "rules@test.local", password: "rules-secret-1" });
    userId = user.id;
    deviceId = (await createDevice(db.db, userId, { name: "Truck 1", imei: "rules-imei-1" })).id;
    await createAlert(db.db, userId, alertValues({ type: "overspeed", attributes: { overspeed: 90 }, devices: [deviceId] }));
    rules = await start();
  }, 120_000);

  afterAll(async () => {
    await rules?.close();
    await producer?.close();
    await bus?.close();
    await live?.close();
    await db?.close();
    await Promise.all([kafka.cleanup(), redis.cleanup(), pg?.cleanup()]);
  });

  it("records an overspeed event once per episode, in the owner's events, with the position's fields", async () => {
    const speeds = [50, 100, 120, 60, 95];
    await send(speeds.map((speedKmh, i) => at(i, { speedKmh })));
    await waitFor("two overspeed events", async () => (await eventCount()) >= 2, 60_000);
    await sleep(500);
    const rows = await events();
    expect(rows.map((e) => [e.type, e.message, e.time.getTime(), e.speedKmh])).toEqual([
      ["overspeed", "Overspeed: 100 kph (limit 90 kph)", T0 + 10_000, 100],
      ["overspeed", "Overspeed: 95 kph (limit 90 kph)", T0 + 40_000, 95],
    ]);
    expect(rows[0]).toMatchObject({ userId, deviceId, latitude: 54.5, longitude: 25.0 });
    expect(rows[0]!.alertId).not.toBeNull();
  }, 90_000);

  it("records nothing new when the same positions arrive again", async () => {
    const before = await eventCount();
    const replay = [at(0, { speedKmh: 50 }), at(1, { speedKmh: 100 })].map((p, i) => ({ ...p, id: i + 1 }));
    await send(replay);
    // A marker position after the replay: once its episode's event shows, the replay was handled.
    await send([at(10, { speedKmh: 50 }), at(11, { speedKmh: 130 })]);
    await waitFor("the marker's event", async () => (await eventCount()) >= before + 1, 60_000);
    await sleep(500);
    expect(await eventCount()).toBe(before + 1);
  }, 90_000);

  it("remembers an episode across a restart: a device still speeding after it is not reported again", async () => {
    const before = await eventCount();
    await rules.close();
    rules = await start();
    await send([at(12, { speedKmh: 140 }), at(13, { speedKmh: 50 }), at(14, { speedKmh: 99 })]);
    await waitFor("the next episode's event", async () => (await eventCount()) >= before + 1, 60_000);
    await sleep(500);
    const rows = (await events()).slice(before);
    expect(rows.map((e) => [e.message, e.time.getTime()])).toEqual([["Overspeed: 99 kph (limit 90 kph)", T0 + 140_000]]);
  }, 120_000);

  it("checks an alert created while it runs once the api's notice names its user", async () => {
    const depot = await createGeofence(db.db, userId, {
      name: "Depot",
      type: "circle",
      polygonColor: "#ff0000",
      coordinates: [],
      center: { lat: 54.7, lng: 25.3 },
      radius: 500,
    });
    // Seen before the alert exists: the book keeps "no geofence alert" for the device.
    await send([at(20, { speedKmh: 10 })]);
    await sleep(1000);
    await createAlert(db.db, userId, alertValues({ type: "geofence_inout", geofences: [depot.id], devices: [deviceId] }));
    await notice({ userIds: [userId], deviceIds: [] });
    await sleep(1500);
    const before = await eventCount();
    await send([at(21, { speedKmh: 10 }), at(22, { speedKmh: 10, latitude: 54.7, longitude: 25.3 }), at(23, { speedKmh: 10 })]);
    await waitFor("entered and left", async () => (await eventCount()) >= before + 2, 60_000);
    const rows = (await events()).slice(before);
    expect(rows.map((e) => [e.type, e.message, e.geofenceId])).toEqual([
      ["geofence_in", "Entered Depot", depot.id],
      ["geofence_out", "Left Depot", depot.id],
    ]);
  }, 120_000);

  it("reads the points of interest and drivers that poi_stop_duration and driver_unauthorized alerts name", async () => {
    const depot = await createUserMapIcon(db.db, userId, { mapIconId: 1, name: "Depot", coordinates: { lat: 54.6, lng: 25.1 } });
    await createDriver(db.db, userId, { deviceId, name: "Ann", rfid: "AA01" });
    await createAlert(db.db, userId, alertValues({ type: "poi_stop_duration", pois: [depot.id], attributes: { stop_duration: 1, distance_tolerance: 100 }, devices: [deviceId] }));
    await createAlert(db.db, userId, alertValues({ type: "driver_unauthorized", devices: [deviceId] }));
    await notice({ userIds: [userId], deviceIds: [] });
    await sleep(1500);
    const before = await eventCount();
    // Ann's card, then a stranger's; then standing 50 m from the depot for 80 s.
    const stop = { speedKmh: 0, moving: false, latitude: 54.60045, longitude: 25.1 };
    await send([
      at(50, { speedKmh: 10, attributes: { rfid: "aa01" } }),
      at(51, { speedKmh: 10, attributes: { rfid: "aa01" } }),
      at(52, { speedKmh: 10, attributes: { rfid: "cc03" } }),
      ...[53, 54, 55, 56, 57, 58, 59, 60, 61].map((i) => at(i, stop)),
    ]);
    await waitFor("the stranger's card and the stop", async () => (await eventCount()) >= before + 2, 60_000);
    await sleep(500);
    const rows = (await events()).slice(before);
    expect(rows.map((e) => [e.type, e.message])).toEqual([
      ["driver_unauthorized", "Unauthorized driver: cc03"],
      ["poi_stop_duration", "Stopped at Depot for more than 1 min"],
    ]);
  }, 120_000);

  it("takes a geofence's speed limit for the user's overspeed alert inside it", async () => {
    await createGeofence(db.db, userId, { name: "School", type: "circle", polygonColor: "#ff0000", coordinates: [], center: { lat: 54.8, lng: 25.5 }, radius: 500, speedLimit: 30 });
    await notice({ userIds: [userId], deviceIds: [] });
    await sleep(1500);
    const before = await eventCount();
    const school = { latitude: 54.8, longitude: 25.5 };
    await send([at(80, { speedKmh: 20, ...school }), at(81, { speedKmh: 40, ...school }), at(82, { speedKmh: 20, ...school })]);
    await waitFor("the school zone's overspeed", async () => (await eventCount()) >= before + 1, 60_000);
    await sleep(500);
    expect((await events()).slice(before).map((e) => e.message)).toEqual(["Overspeed: 40 kph (limit 30 kph)"]);
  }, 120_000);

  it("sweeps a silent device: offline for longer than an offline_duration alert's minutes, recorded once however often it sweeps", async () => {
    await createAlert(db.db, userId, alertValues({ type: "offline_duration", attributes: { offline_duration: 30 }, devices: [deviceId] }));
    await notice({ userIds: [userId], deviceIds: [] });
    const lastContact = Date.now() - 45 * 60_000;
    const last = at(40, { fixTime: lastContact - 1000, serverTime: lastContact });
    await live.putStates([{ state: { ...last, positionId: last.id, movedAt: last.fixTime, odometerKm: 0, tail: [] }, userIds: [userId] }]);
    await sleep(1500);
    const before = await eventCount();
    expect(await rules.sweep()).toBe(1);
    expect(await rules.sweep()).toBe(0);
    const rows = (await events()).slice(before);
    expect(rows.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([["offline_duration", "Offline for more than 30 min", lastContact + 30 * 60_000]]);
  }, 90_000);

  it("sets aside a message that is not an enriched position and goes on", async () => {
    const before = await eventCount();
    await producer.send(topic, [{ key: "rules-imei-1", value: "{not json" }]);
    await send([at(90, { speedKmh: 50 }), at(91, { speedKmh: 150 })]);
    await waitFor("the event after the bad message", async () => (await eventCount()) >= before + 1, 60_000);
    // The batch's events are recorded before its refused message is written to the dead
    // topic, so the count moves a produce round-trip after the event shows.
    await waitFor("the bad message dead-lettered", async () => rules.deadLettered() >= 1, 10_000);
    expect(rules.deadLettered()).toBe(1);
  }, 90_000);
});
