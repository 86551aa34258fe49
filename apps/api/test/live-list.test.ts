/*
 * The live list across api instances and over time, on both store pairs (PGlite with the
 * memory live store, as the embedded setup runs; PostgreSQL with Redis, as production
 * does): two api apps over the same stores, each with its own record cache, as two api
 * processes behind a load balancer would be.
 *
 * - An edit answered by one instance is in the next poll answered by the other, with the
 *   new content (the caches are kept right by the live store's record index, not by
 *   anything the instances tell each other).
 * - A device that falls silent is listed, offline, in the next poll after it crosses the
 *   offline timeout, and again, online, when it reports; nothing was written when it went
 *   offline.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryBus } from "@fleet/bus";
import { AddDeviceResponseSchema, GetDevicesLatestResponseSchema, GetDevicesResponseSchema, OkSchema, type LiveState } from "@fleet/contracts";
import { createUser, type DbHandle, type User } from "@fleet/db";
import { createMemoryLive, createRedisLive, type LiveStore } from "@fleet/live";
import { hasService, redisTest, sleep, uniqueSuffix } from "@fleet/testkit";
import { apiApp, apiServerOptions, busDeadLetters, createBusCommandQueue } from "../src/index.js";
import { deviceFields, lazyChdbHistory, nextSecond, ok, openRecords, type RecordsStore, type Reply } from "./fixture.js";

const OFFLINE_AFTER_MS = 2_000;

interface Stores {
  handle: DbHandle;
  live: LiveStore;
  /** A second connection to the same live store, for the second instance (Redis: its own client). */
  otherLive: LiveStore;
  cleanup(): Promise<void>;
}

async function openStores(kind: RecordsStore): Promise<Stores> {
  const records = await openRecords(kind);
  await records.handle.migrate();
  if (kind === "pglite") {
    const live = createMemoryLive();
    return { handle: records.handle, live, otherLive: live, cleanup: async () => (await live.close(), await records.handle.close(), await records.cleanup()) };
  }
  const t = redisTest("live-list");
  const live = createRedisLive({ url: t.url, keyPrefix: t.keyPrefix });
  const otherLive = createRedisLive({ url: t.url, keyPrefix: t.keyPrefix });
  return {
    handle: records.handle,
    live,
    otherLive,
    cleanup: async () => {
      await Promise.all([live.close(), otherLive.close()]);
      await t.cleanup();
      await records.handle.close();
      await records.cleanup();
    },
  };
}

/** An api instance as apps/api's server builds it, over the given stores. */
async function apiInstance(s: Stores, live: LiveStore): Promise<FastifyInstance> {
  const app = Fastify(apiServerOptions());
  const bus = createMemoryBus();
  const producer = await bus.producer();
  const history = lazyChdbHistory();
  app.addHook("onClose", async () => {
    await bus.close();
    await history.close();
  });
  await app.register(apiApp, {
    prefix: "/api",
    db: s.handle.db,
    live,
    history,
    commands: createBusCommandQueue({ producer }),
    deadLetters: busDeadLetters(bus, producer),
    settings: { offlineAfterMs: OFFLINE_AFTER_MS, version: "test" },
  });
  await app.ready();
  return app;
}

async function call(app: FastifyInstance, user: User, path: string, query: Record<string, string | number> = {}, body?: unknown): Promise<Reply> {
  const url = `/api${path}`;
  const q = Object.fromEntries(Object.entries({ lang: "en", ...query, user_api_hash: user.apiHash }).map(([k, v]) => [k, String(v)]));
  const res = await app.inject(body === undefined ? { method: "GET", url, query: q } : { method: "POST", url, query: q, payload: body as object });
  return { status: res.statusCode, body: res.json(), text: res.body, raw: res.rawPayload, headers: res.headers, label: `${body === undefined ? "GET" : "POST"} ${path}` };
}

function state(deviceId: number, at = Date.now()): LiveState {
  return { deviceId, positionId: at, uniqueId: `live-${deviceId}`, protocol: "osmand", latitude: 54.7, longitude: 25.3, altitude: 100, course: 90, speedKmh: 30, fixTime: at, serverTime: at, attributes: {}, movedAt: at, odometerKm: 0, tail: [] };
}

function suite(kind: RecordsStore) {
  let s: Stores;
  let a: FastifyInstance;
  let b: FastifyInstance;
  beforeAll(async () => {
    s = await openStores(kind);
    a = await apiInstance(s, s.live);
    b = await apiInstance(s, s.otherLive);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await s?.cleanup();
  });

  const latest = async (app: FastifyInstance, user: User, time?: number) => ok(await call(app, user, "/get_devices_latest", time === undefined ? {} : { time }), GetDevicesLatestResponseSchema);
  const names = async (app: FastifyInstance, user: User) =>
    new Map(ok(await call(app, user, "/get_devices"), GetDevicesResponseSchema).flatMap((g) => g.items.map((i) => [i.id, i.name] as const)));

  it("an edit, an addition and a removal made through one instance are in the other's next poll and full list", async () => {
    const user = await createUser(s.handle.db, { email: `cache-${uniqueSuffix()}@live.test`, password: "secret-pw-1" });
    const add = async (name: string) => ok(await call(a, user, "/add_device", {}, deviceFields({ name })), AddDeviceResponseSchema).id;
    const van = await add("Van");
    const truck = await add("Truck");
    // Stamped ahead, so neither goes offline while the test runs.
    await s.live.putStates([van, truck].map((id) => ({ state: state(id, Date.now() + 60_000), userIds: [user.id] })));
    // Both instances have the user's records cached.
    expect(await names(a, user)).toEqual(new Map([[van, "Van"], [truck, "Truck"]]));
    expect(await names(b, user)).toEqual(new Map([[van, "Van"], [truck, "Truck"]]));
    await nextSecond();
    const { time } = await latest(b, user);
    await nextSecond();

    ok(await call(a, user, "/edit_device", { device_id: van }, { name: "Van renamed" }), OkSchema);
    const polled = await latest(b, user, time);
    expect(polled.items.map((i) => [i.id, i.name])).toEqual([[van, "Van renamed"]]);
    expect(await names(b, user)).toEqual(new Map([[van, "Van renamed"], [truck, "Truck"]]));

    // Past the edit's second, which a poll from polled.time sends again.
    await nextSecond();
    const { time: later } = await latest(b, user, polled.time);
    await nextSecond();
    const bus = await add("Bus");
    ok(await call(a, user, "/destroy_device", { device_id: truck }), OkSchema);
    expect((await latest(b, user, later)).items.map((i) => i.id)).toEqual([bus]);
    expect(await names(b, user)).toEqual(new Map([[van, "Van renamed"], [bus, "Bus"]]));
  });

  it("lists a device going offline in the next poll, and coming back in the one after it reports", async () => {
    const user = await createUser(s.handle.db, { email: `offline-${uniqueSuffix()}@live.test`, password: "secret-pw-1" });
    const add = async (name: string) => ok(await call(a, user, "/add_device", {}, deviceFields({ name })), AddDeviceResponseSchema).id;
    const van = await add("Van");
    const quiet = await add("Quiet");
    await s.live.putStates([{ state: state(quiet, Date.now() - 10 * OFFLINE_AFTER_MS), userIds: [user.id] }]);
    await nextSecond();
    let { time } = await latest(b, user);
    await nextSecond();

    for (let round = 0; round < 2; round++) {
      await s.live.putStates([{ state: state(van), userIds: [user.id] }]);
      // Polled often, as a client does: each poll from the previous one's time.
      const first = await latest(b, user, time);
      time = first.time;
      expect(first.items.map((i) => [i.id, i.online])).toEqual([[van, "online"]]);
      const seen: [number, string][] = [];
      const until = Date.now() + OFFLINE_AFTER_MS + 2_500;
      while (Date.now() < until) {
        await sleep(250);
        const next = await latest(b, user, time);
        time = next.time;
        seen.push(...next.items.map((i) => [i.id, i.online] as [number, string]));
      }
      // Listed offline once it crossed the timeout, and only that device; before it, only
      // the re-sent second of its report (online).
      const firstOffline = seen.findIndex(([, online]) => online === "offline");
      expect(firstOffline, JSON.stringify(seen)).toBeGreaterThanOrEqual(0);
      expect(seen.slice(0, firstOffline)).toEqual(seen.slice(0, firstOffline).map(() => [van, "online"]));
      expect(seen.slice(firstOffline)).toEqual(seen.slice(firstOffline).map(() => [van, "offline"]));
    }
  }, 30_000);
}

describe("the live list across instances and time [pglite + memory]", () => suite("pglite"));
// Skips where no PostgreSQL or Redis answers (global setup prints why; under CI=true it fails the run instead).
describe.runIf(hasService("postgres") && hasService("redis"))("the live list across instances and time [postgres + redis]", () => suite("postgres"));
