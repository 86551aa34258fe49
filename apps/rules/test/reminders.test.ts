/**
 * Maintenance service reminders as their owner receives them: an event of type "service"
 * in the owner's events, a mail through a real SMTP server and an SMS through the owner's
 * gateway (a real HTTP server), once per cycle, again for a renewing service's next cycle and
 * after an edit. Services and events in a real Postgres, device counters in a real Redis.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createKafkaBus, type Bus } from "@fleet/bus";
import type { LiveState } from "@fleet/contracts";
import {
  createDevice,
  createService,
  createUser,
  defaultSmsGatewayParams,
  deleteUserService,
  destroyDevice,
  findUserService,
  listEventNotifications,
  openDb,
  pageUserEvents,
  updateUserService,
  users,
  type DbHandle,
  type ServiceInput,
} from "@fleet/db";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { createMailer, type Mailer } from "@fleet/mail";
import { hasService, kafkaTest, redisTest, smtpTestServer, tempPostgresDb, type SmtpTestServer } from "@fleet/testkit";
import { startRules, type Rules } from "../src/service.js";
import { T0, silent } from "./fixture.js";

describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("maintenance service reminders", () => {
  const kafka = kafkaTest("remind");
  const redis = redisTest("remind");
  let pg: Awaited<ReturnType<typeof tempPostgresDb>>;
  let db: DbHandle;
  let live: LiveStore;
  let bus: Bus;
  let rules: Rules;
  let smtp: SmtpTestServer;
  let mailer: Mailer;
  let gateway: Server;
  const texts: URLSearchParams[] = [];
  let userId: number;
  let device = 0;
  let fix = T0;

  const newDevice = async () => (await createDevice(db.db, userId, { name: `Truck ${++device}`, imei: `remind-imei-${device}` })).id;
  /** The device reported, a moment after its last report, with this odometer. */
  const reports = (deviceId: number, odometerKm: number) => {
    fix += 10_000;
    const state: LiveState = { deviceId, positionId: fix, uniqueId: `remind-imei-${deviceId}`, protocol: "osmand", latitude: 54.5, longitude: 25, altitude: 100, course: 0, fixTime: fix, serverTime: fix + 300, attributes: {}, speedKmh: 50, movedAt: fix, odometerKm, tail: [] };
    return live.putStates([{ state, userIds: [userId] }]);
  };
  const oilChange = (deviceId: number, over: Partial<ServiceInput> = {}): ServiceInput => ({
    deviceId,
    name: "Oil change",
    expirationBy: "odometer",
    interval: 10_000,
    lastService: "6000",
    triggerEventLeft: 500,
    renewAfterExpiration: false,
    email: "",
    mobilePhone: "",
    ...over,
  });
  const serviceEvents = async (deviceId: number) => (await pageUserEvents(db.db, userId, { deviceId, type: "service" }, { limit: 50, offset: 0 })).rows.reverse();

  beforeAll(async () => {
    pg = await tempPostgresDb();
    db = await openDb({ databaseUrl: pg.url, dataDir: tmpdir() });
    await db.migrate();
    live = createRedisLive({ url: redis.url, keyPrefix: redis.keyPrefix });
    bus = createKafkaBus({ brokers: kafka.brokers, clientId: "remind-test", logger: silent });
    await bus.ensureTopics([kafka.topic("enriched"), kafka.topic("notices"), kafka.topic("commands")], 1);
    smtp = await smtpTestServer();
    mailer = createMailer({ smtpUrl: smtp.url, from: "Fleet <alerts@fleet.test>", dataDir: tmpdir(), logger: silent });
    gateway = createServer((req, res) => {
      texts.push(new URL(req.url ?? "/", "http://x").searchParams);
      res.end("OK");
    });
    await new Promise<void>((r) => gateway.listen(0, "127.0.0.1", r));
    userId = (await createUser(db.db, { email: "remind@test.local", password: "remind-secret-1" })).id;
    const smsGatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/sms`;
    await db.db.update(users).set({ smsGateway: true, smsGatewayUrl, smsGatewayParams: { ...defaultSmsGatewayParams, request_method: "get" } }).where(eq(users.id, userId));
    // Reminders and deliveries only when the test asks.
    rules = await startRules({
      bus,
      db: db.db,
      live,
      logger: silent,
      topic: kafka.topic("enriched"),
      noticesTopic: kafka.topic("notices"),
      commandsTopic: kafka.topic("commands"),
      deadTopic: kafka.topic("dead"),
      groupId: kafka.groupId("rules"),
      mailer,
      allowPrivate: true,
      remindEveryMs: 3_600_000,
      sweepEveryMs: 3_600_000,
      dispatchEveryMs: 3_600_000,
    });
  }, 120_000);

  afterAll(async () => {
    await rules?.close();
    await bus?.close();
    await live?.close();
    await mailer?.close();
    await smtp?.close();
    await new Promise<void>((r) => (gateway ? gateway.close(() => r()) : r()));
    await db?.close();
    await Promise.all([kafka.cleanup(), redis.cleanup(), pg?.cleanup()]);
  });

  it("reminds once when the odometer reaches the reminder: an event, a mail and a text, and the service shows it sent", async () => {
    const deviceId = await newDevice();
    const service = await createService(db.db, userId, oilChange(deviceId, { email: "garage@fleet.test", mobilePhone: "+37060000009" }));
    await reports(deviceId, 15_499);
    expect(await rules.remind()).toBe(0);
    await reports(deviceId, 15_520);
    expect(await rules.remind()).toBe(1);
    expect(await rules.remind()).toBe(0);
    const [event] = await serviceEvents(deviceId);
    expect(event).toMatchObject({ type: "service", message: "Service due: Oil change (16000 km)", alertId: null, serviceId: service.id, latitude: 54.5, longitude: 25 });
    expect(await findUserService(db.db, userId, service.id)).toMatchObject({ eventSent: true, notifiedCycle: "6000" });

    await rules.dispatch();
    const mail = await smtp.mailTo("garage@fleet.test");
    expect(mail.subject).toBe(`Service due: Oil change (16000 km) (Truck ${device})`);
    expect(mail.text).toContain(`Device: Truck ${device}`);
    expect(texts.map((q) => [q.get("to"), q.get("message")])).toEqual([["+37060000009", `Service due: Oil change (16000 km) (Truck ${device})`]]);
    expect((await listEventNotifications(db.db, [event!.id])).map((n) => [n.channel, n.status])).toEqual([
      ["email", "sent"],
      ["sms", "sent"],
    ]);
    // Driving on past the expiry does not remind again: the reminder of this cycle went out.
    await reports(deviceId, 16_100);
    expect(await rules.remind()).toBe(0);
  }, 60_000);

  it("reminds a renewing service again in each new cycle, and an edited one again under its new terms", async () => {
    const deviceId = await newDevice();
    const service = await createService(db.db, userId, oilChange(deviceId, { renewAfterExpiration: true }));
    await reports(deviceId, 15_600);
    expect(await rules.remind()).toBe(1);
    await reports(deviceId, 17_000);
    expect(await rules.remind()).toBe(0);
    // Rolled on at 16000: the next cycle reminds at 25500.
    await reports(deviceId, 25_500);
    expect(await rules.remind()).toBe(1);
    expect((await serviceEvents(deviceId)).map((e) => e.message)).toEqual(["Service due: Oil change (16000 km)", "Service due: Oil change (26000 km)"]);

    // Serviced at 25000 with a shorter interval: the new terms are due at 30000, reminded from 29500.
    await updateUserService(db.db, userId, service.id, oilChange(deviceId, { lastService: "25000", interval: 5000, renewAfterExpiration: true }));
    expect(await findUserService(db.db, userId, service.id)).toMatchObject({ eventSent: false, notifiedCycle: null });
    expect(await rules.remind()).toBe(0);
    await reports(deviceId, 29_500);
    expect(await rules.remind()).toBe(1);
    expect((await serviceEvents(deviceId)).map((e) => e.message).at(-1)).toBe("Service due: Oil change (30000 km)");
  }, 60_000);

  it("gives up a reminder whose service was deleted before it went out, and reminds nothing of a device the owner no longer has", async () => {
    const deviceId = await newDevice();
    const service = await createService(db.db, userId, oilChange(deviceId, { email: "gone@fleet.test" }));
    await reports(deviceId, 16_000);
    expect(await rules.remind()).toBe(1);
    const [event] = await serviceEvents(deviceId);
    expect(event!.message).toBe("Service expired: Oil change");
    await deleteUserService(db.db, userId, service.id);
    await rules.dispatch();
    expect(await listEventNotifications(db.db, [event!.id])).toMatchObject([{ channel: "email", status: "failed", lastError: "the alert or service was deleted" }]);
    expect(smtp.received.filter((m) => m.to.includes("gone@fleet.test"))).toEqual([]);

    const other = await newDevice();
    await createService(db.db, userId, oilChange(other));
    await reports(other, 16_000);
    await destroyDevice(db.db, userId, other);
    expect(await rules.remind()).toBe(0);
    expect(await serviceEvents(other)).toEqual([]);
  }, 60_000);
});
