/**
 * Alert notifications as a user receives them: a webhook POST to a real HTTP server and a
 * mail through a real SMTP server, each once per event, retried while the webhook fails
 * for a while, not retried after a 4xx. Rules, events and the outbox in a real Postgres,
 * positions on a real Kafka, detector memory in a real Redis.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaBus, type Bus, type BusProducer } from "@fleet/bus";
import { eq } from "drizzle-orm";
import { NO_NOTIFICATIONS, createAlert, createDevice, createUser, defaultSmsGatewayParams, listEventNotifications, listUserSentCommands, openDb, pageUserEvents, users, type AlertNotifications, type DbHandle } from "@fleet/db";
import { createOfflineGeocoder } from "@fleet/geocoder";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { createMailer, type Mailer } from "@fleet/mail";
import { hasService, kafkaTest, redisTest, smtpTestServer, tempPostgresDb, waitFor, type SmtpTestServer } from "@fleet/testkit";
import { startRules, type Rules } from "../src/service.js";
import { T0, alertValues, enrichedAt, sendPositions, silent } from "./fixture.js";


/** A webhook's body as it arrived: the parts the test reads. */
interface HookBody {
  event: Record<string, unknown>;
  position: Record<string, unknown>;
  device: Record<string, unknown>;
}

interface Hook {
  method: string;
  url: string;
  body: HookBody;
  contentType: string | undefined;
}

describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("alert notifications", () => {
  const kafka = kafkaTest("notify");
  const redis = redisTest("notify");
  const topic = kafka.topic("enriched");
  let pg: Awaited<ReturnType<typeof tempPostgresDb>>;
  let db: DbHandle;
  let live: LiveStore;
  let bus: Bus;
  let producer: BusProducer;
  let rules: Rules;
  let smtp: SmtpTestServer;
  let mailer: Mailer;
  let hookServer: Server;
  let hookUrl: string;
  const hooks: Hook[] = [];
  /** What the webhook answers next, in turn; then 204. */
  const answers: number[] = [];
  let userId: number;
  let device = 0;
  // The embedded default geocoder: the fixtures' point (54.5, 25.0) is in Lithuania.
  const geocoder = createOfflineGeocoder({ logger: silent });

  const newDevice = async () => (await createDevice(db.db, userId, { name: `Van ${++device}`, imei: `notify-imei-${device}` })).id;
  const position = (deviceId: number, i: number, speedKmh: number) => enrichedAt(i, { deviceId, uniqueId: `notify-imei-${deviceId}`, userIds: [userId], attributes: { ignition: true }, speedKmh });
  const speeding = (deviceId: number) => sendPositions(producer, topic, [position(deviceId, 0, 50), position(deviceId, 1, 120)]);
  const notifications = (over: Partial<AlertNotifications>): AlertNotifications => ({ ...NO_NOTIFICATIONS, ...over });
  const overspeedAlert = (deviceId: number, n: AlertNotifications) => createAlert(db.db, userId, alertValues({ name: "Speeding", type: "overspeed", attributes: { overspeed: 90 }, notifications: n, devices: [deviceId] }));
  const eventOf = async (deviceId: number) => {
    await waitFor("the event", async () => (await pageUserEvents(db.db, userId, { deviceId }, { limit: 10, offset: 0 })).rows.length > 0, 60_000);
    return (await pageUserEvents(db.db, userId, { deviceId }, { limit: 10, offset: 0 })).rows[0]!;
  };

  beforeAll(async () => {
    pg = await tempPostgresDb();
    db = await openDb({ databaseUrl: pg.url, dataDir: tmpdir() });
    await db.migrate();
    live = createRedisLive({ url: redis.url, keyPrefix: redis.keyPrefix });
    bus = createKafkaBus({ brokers: kafka.brokers, clientId: "notify-test", logger: silent });
    await bus.ensureTopics([topic, kafka.topic("notices"), kafka.topic("commands")], 2);
    producer = await bus.producer();
    smtp = await smtpTestServer();
    mailer = createMailer({ smtpUrl: smtp.url, from: "Fleet <alerts@fleet.test>", dataDir: tmpdir(), logger: silent });
    hookServer = createServer((req: IncomingMessage, res) => {
      let raw = "";
      req.setEncoding("utf8").on("data", (c: string) => (raw += c));
      req.on("end", () => {
        hooks.push({ method: req.method ?? "", url: req.url ?? "", body: (raw === "" ? {} : JSON.parse(raw)) as HookBody, contentType: req.headers["content-type"] });
        res.statusCode = answers.shift() ?? 204;
        res.end();
      });
    });
    await new Promise<void>((r) => hookServer.listen(0, "127.0.0.1", r));
    hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hooks/fleet?token=s3cret`;
    userId = (await createUser(db.db, { email: "notify@test.local", password: "notify-secret-1", unitOfDistance: "mi" })).id;
    // Dispatch only when the test asks, so retries run on the test's clock.
    // From the beginning of the test's own topic, so the first sends cannot race the group's start.
    rules = await startRules({ bus, db: db.db, live, logger: silent, topic, fromBeginning: true, noticesTopic: kafka.topic("notices"), groupId: kafka.groupId("rules"), deadTopic: kafka.topic("dead"), commandsTopic: kafka.topic("commands"), mailer, geocoder, allowPrivate: true, dispatchEveryMs: 3_600_000 });
  }, 120_000);

  afterAll(async () => {
    await rules?.close();
    await producer?.close();
    await bus?.close();
    await live?.close();
    await mailer?.close();
    await smtp?.close();
    await new Promise<void>((r) => (hookServer ? hookServer.close(() => r()) : r()));
    await db?.close();
    await Promise.all([kafka.cleanup(), redis.cleanup(), pg?.cleanup()]);
  });

  it("posts the event, its position and device to the alert's webhook once, and mails its addresses once", async () => {
    const deviceId = await newDevice();
    const alertId = await overspeedAlert(deviceId, notifications({ webhook: { active: true, input: hookUrl }, email: { active: true, input: "ops@fleet.test; boss@fleet.test" } }));
    await speeding(deviceId);
    const event = await eventOf(deviceId);
    await rules.dispatch();
    expect(hooks).toHaveLength(1);
    const { body, contentType } = hooks[0]!;
    expect(contentType).toBe("application/json");
    expect(body.event).toMatchObject({ id: event.id, type: "overspeed", deviceId, alertId, eventTime: new Date(T0 + 10_000).toISOString(), message: "Overspeed: 75 mph (limit 56 mph)", attributes: { speed: 75, speedLimit: 56 } });
    expect(body.position).toMatchObject({ deviceId, latitude: 54.5, longitude: 25.0, speed: 75, speedUnit: "mph", fixTime: new Date(T0 + 10_000).toISOString(), valid: true, accuracy: 0, attributes: { ignition: true } });
    // The test's fixes are days old: silent past Traccar's ten minutes, the device is "unknown".
    expect(body.device).toEqual({ id: deviceId, name: "Van 1", uniqueId: `notify-imei-${deviceId}`, status: "unknown", lastUpdate: new Date(T0 + 10_300).toISOString(), positionId: event.positionId, groupId: null, phone: "", model: "", attributes: {} });
    const mails = await Promise.all([smtp.mailTo("ops@fleet.test"), smtp.mailTo("boss@fleet.test")]);
    expect(mails[0]!.subject).toBe("Speeding: Overspeed: 75 mph (limit 56 mph) (Van 1)");
    expect(mails[0]!.text).toContain("Device: Van 1");
    // Both name the place through the geocoder port, as get_events does.
    const address = (await geocoder.reverse({ lat: 54.5, lng: 25.0 }))!.address;
    expect(address).toMatch(/, LT$/);
    expect(body.position.address).toBe(address);
    expect(mails[0]!.text).toContain(`Address: ${address}\n`);

    await rules.dispatch();
    expect(hooks).toHaveLength(1);
    expect((await listEventNotifications(db.db, [event.id])).map((n) => [n.channel, n.status, n.attempts])).toEqual([
      ["webhook", "sent", 1],
      ["email", "sent", 1],
    ]);
  }, 90_000);

  it("texts the alert's numbers through the owner's own SMS gateway, once each", async () => {
    const base = new URL(hookUrl);
    await db.db.update(users).set({ smsGateway: true, smsGatewayUrl: `http://${base.host}/sms`, smsGatewayParams: { ...defaultSmsGatewayParams, request_method: "get" } }).where(eq(users.id, userId));
    const deviceId = await newDevice();
    await overspeedAlert(deviceId, notifications({ sms: { active: true, input: "+37060000001;+37060000002" } }));
    hooks.length = 0;
    await speeding(deviceId);
    const event = await eventOf(deviceId);
    await rules.dispatch();
    const texts = hooks.map((h) => new URL(h.url, "http://x").searchParams).map((q) => [q.get("to"), q.get("message")]);
    expect(texts.sort()).toEqual([
      ["+37060000001", `Overspeed: 75 mph (limit 56 mph) (Van ${device})`],
      ["+37060000002", `Overspeed: 75 mph (limit 56 mph) (Van ${device})`],
    ]);
    expect((await listEventNotifications(db.db, [event.id])).map((n) => [n.channel, n.status])).toEqual([["sms", "sent"]]);
  }, 90_000);

  it("queues the alert's GPRS command for the device once, recorded in the owner's sent commands", async () => {
    const deviceId = await newDevice();
    await overspeedAlert(deviceId, notifications({ command: { active: true, type: "engineStop", key: null } }));
    await speeding(deviceId);
    const event = await eventOf(deviceId);
    await rules.dispatch();
    await rules.dispatch();
    const queued = (await bus.read(kafka.topic("commands"))).map((m) => [m.key, JSON.parse(m.value.toString("utf8")) as Record<string, unknown>] as const);
    expect(queued.map(([key, c]) => [key, c.type, c.deviceId, c.userId, c.protocol])).toEqual([[`notify-imei-${deviceId}`, "engineStop", deviceId, userId, "osmand"]]);
    const sent = (await listUserSentCommands(db.db, userId)).filter((c) => c.deviceId === deviceId);
    expect(sent.map((c) => [c.id, c.type, c.channel])).toEqual([[queued[0]![1].id, "engineStop", "gprs"]]);
    expect((await listEventNotifications(db.db, [event.id])).map((n) => [n.channel, n.status])).toEqual([["command", "sent"]]);
  }, 90_000);

  it("tries a failing webhook again later, and gives up at once on a 4xx other than 429", async () => {
    const retried = await newDevice();
    await overspeedAlert(retried, notifications({ webhook: { active: true, input: hookUrl } }));
    const refused = await newDevice();
    await overspeedAlert(refused, notifications({ webhook: { active: true, input: `${hookUrl}&refuse=1` } }));
    hooks.length = 0;
    await speeding(retried);
    const first = await eventOf(retried);
    answers.push(503);
    await rules.dispatch();
    expect(hooks).toHaveLength(1);
    const [pending] = await listEventNotifications(db.db, [first.id]);
    expect(pending).toMatchObject({ status: "pending", attempts: 1, lastError: "the webhook answered 503" });
    // Not due yet: the next look delivers nothing.
    await rules.dispatch();
    expect(hooks).toHaveLength(1);
    // A second in the past: the dispatcher compares with this process's clock in whole milliseconds,
    // and Postgres's now() of a moment ago can still be later than that within the same millisecond.
    await db.db.execute(`UPDATE notifications SET next_at = now() - interval '1 second' WHERE id = ${pending!.id}`);
    await rules.dispatch();
    expect(hooks).toHaveLength(2);
    expect((await listEventNotifications(db.db, [first.id]))[0]).toMatchObject({ status: "sent", attempts: 2 });

    await speeding(refused);
    const second = await eventOf(refused);
    answers.push(410);
    await rules.dispatch();
    await db.db.execute(`UPDATE notifications SET next_at = now() - interval '1 second' WHERE event_id = ${second.id}`);
    await rules.dispatch();
    expect((await listEventNotifications(db.db, [second.id]))[0]).toMatchObject({ status: "failed", attempts: 1, lastError: "the webhook answered 410" });
  }, 90_000);

  it("records a repeat within the alert's silence without notifying it, and notifies once the silence has passed", async () => {
    const deviceId = await newDevice();
    const alertId = await overspeedAlert(deviceId, notifications({ webhook: { active: true, input: hookUrl }, silent: { active: true, input: 10 } }));
    hooks.length = 0;
    // Speeding at T0+10 s, again at T0+30 s (within 10 minutes), and at T0+1010 s (16.3 minutes after the last).
    await sendPositions(producer, topic, [position(deviceId, 0, 50), position(deviceId, 1, 120), position(deviceId, 2, 50), position(deviceId, 3, 120), position(deviceId, 100, 50), position(deviceId, 101, 120)]);
    const page = () => pageUserEvents(db.db, userId, { deviceId }, { limit: 10, offset: 0 });
    await waitFor("three events", async () => (await page()).total === 3, 60_000);
    const events = (await page()).rows.reverse();
    expect(events.map((e) => [e.alertId, e.time.getTime() - T0])).toEqual([
      [alertId, 10_000],
      [alertId, 30_000],
      [alertId, 1_010_000],
    ]);
    const queued = await listEventNotifications(db.db, events.map((e) => e.id));
    expect(queued.map((n) => [n.eventId, n.channel])).toEqual([
      [events[0]!.id, "webhook"],
      [events[2]!.id, "webhook"],
    ]);
    await rules.dispatch();
    // Delivered concurrently: in either order.
    expect(hooks.map((h) => h.body.event.id as number).sort((x, y) => x - y)).toEqual([events[0]!.id, events[2]!.id]);
  }, 90_000);
});
