import { rm } from "node:fs/promises";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { hasService, tempPglite, waitFor } from "@fleet/testkit";
import { startStandalone, type Standalone } from "../src/main.js";
import { distributedStack, type DistributedStack } from "./distributed-stack.js";
import { fleetScenario, type Client } from "./scenario.js";

const admin = { email: "admin@e2e.test", password: "e2e-secret" };
const silent = pino({ level: "silent" });

// Needs the real services; without them (a machine with no infra/ running) it is skipped,
// and in CI global setup has already failed the run.
describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("end to end on Kafka, Postgres, Redis and chDB", () => {
  let stack: DistributedStack;

  beforeAll(async () => {
    // Two trackers in one consumer group: they split the partitions and together store each position once.
    stack = await distributedStack({ label: "e2e", admin, partitions: 12, trackers: 2 });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("stores every acknowledged position once and serves the live list and the changed-since poll", async () => {
    const client: Client = {
      async request(method, url, body) {
        const res = await stack.app.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }) });
        return { status: res.statusCode, json: res.json() };
      },
      historyCount: () => stack.history.count(),
    };
    await fleetScenario(client, admin);
    // Both group members took part; the scenario already proved each position is stored once.
    const [one, two] = stack.trackers.map((t) => t.pipeline.stats().positions);
    expect(one).toBeGreaterThan(0);
    expect(two).toBeGreaterThan(0);
    expect(one! + two!).toBeGreaterThanOrEqual(2005);
  }, 180_000);
});

describe("end to end in embedded mode (pnpm start: PGlite, chDB, in-process bus, memory live store)", () => {
  let dataDir: string;
  let fleet: Standalone;

  beforeAll(async () => {
    dataDir = (await tempPglite()).dataDir;
    const config = loadConfig(StandaloneEnvSchema, { DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", FLEET_ADMIN_EMAIL: admin.email, FLEET_ADMIN_PASSWORD: admin.password, TRACKER_FLUSH_MS: "200", OSMAND_PORT: "0" });
    fleet = await startStandalone(config, silent);
  });

  afterAll(async () => {
    await fleet?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A call to the embedded server, a POST with a JSON body when one is given; the answer's JSON. */
  const call = async (url: string, body?: unknown) => {
    const res = await fetch(new URL(url, fleet.url), body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return res.json() as Promise<Record<string, unknown>>;
  };
  /** Logs the administrator in and adds a device; the calls' query (`lang`, the hash) and the device's id. */
  const addDevice = async (name: string, imei: string) => {
    const { user_api_hash: hash } = await call("/api/login", { email: admin.email, password: admin.password });
    const q = `lang=en&user_api_hash=${String(hash)}`;
    const { id } = await call(`/api/add_device?${q}`, { name, imei, icon_id: 0, fuel_measurement_id: 1, tail_length: 5, min_moving_speed: 6, min_fuel_fillings: 10, min_fuel_thefts: 10 });
    return { q, id };
  };

  it("runs the same scenario over real HTTP", async () => {
    const client: Client = {
      async request(method, url, body) {
        const res = await fetch(new URL(url, fleet.url), {
          method,
          headers: body === undefined ? {} : { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, json: await res.json() };
      },
      historyCount: () => fleet.history.count(),
    };
    await fleetScenario(client, admin);
  }, 180_000);

  it("answers paths fastify cannot route in the failure shape, on the ingest's routes and the API's", async () => {
    const get = async (path: string) => {
      const res = await fetch(new URL(path, fleet.url));
      return [res.status, await res.json()];
    };
    const badEscape = { status: 0, error: "The URL's path is not valid: a %-escape in it is not UTF-8." };
    expect(await get("/insert.php%E0%A4%A?uniqueId=1")).toEqual([400, badEscape]);
    expect(await get("/api/devices/%E0%A4%A/media?lang=en")).toEqual([400, badEscape]);
    expect(await get(`/api/devices/${"1".repeat(1001)}/media?lang=en`)).toEqual([414, { status: 0, error: "A part of the URL's path is longer than 1000 characters." }]);
  });

  it("makes general information and drives and stops that agree with get_history, from positions pushed through insert.php", async () => {
    const imei = "860000000000077";
    const { q, id } = await addDevice("Report van", imei);
    // Yesterday 12:00 UTC: 5 min at 60 km/h, 10 min standing, 5 min at 95 km/h, a fix every 10 s (osmand speeds are knots).
    const start = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 1, 12);
    const fixes: { kmh: number }[] = [...Array(31).fill({ kmh: 60 }), ...Array(60).fill({ kmh: 0 }), ...Array(31).fill({ kmh: 95 })];
    let lat = 54.6;
    for (const [i, { kmh }] of fixes.entries()) {
      const res = await fetch(new URL(`/insert.php?uniqueId=${imei}&protocol=osmand&latitude=${lat.toFixed(6)}&longitude=25.2797&altitude=100&course=0&speed=${kmh / 1.852}&fixTime=${start + i * 10_000}`, fleet.url));
      expect(res.status, await res.clone().text()).toBe(200);
      lat += (kmh * 10) / 3600 / 111.195;
    }
    for (let tries = 0; (await fleet.history.count({ deviceId: Number(id) })) < fixes.length; tries++) {
      expect(tries).toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 100));
    }
    const date = new Date(start).toISOString().slice(0, 10);
    const history = await call(`/api/get_history?${q}&device_id=${String(id)}&from_date=${date}&from_time=00:00&to_date=${date}&to_time=23:59&stops=300`);
    expect([history.distance_sum, history.move_duration, history.stop_duration, history.top_speed]).toEqual(["13.08 km", "10min 20s", "9min 50s", "95 kph"]);
    for (const type of [1, 3]) {
      const { url } = await call(`/api/generate_report?${q}`, { title: "Check", type, format: "html", devices: [id], date_from: date, date_to: date, stops: 5 });
      const text = (await (await fetch(String(url))).text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
      for (const figure of ["Route length (km) 13.08", "Move duration 10min 20s", "Stop duration 9min 50s", "Stops 1", "Top speed (kph) 95"]) expect(text, `type ${type}`).toContain(figure);
      if (type === 3) expect(text).toContain(`Stop ${date} 12:05:10 ${date} 12:15:00 9min 50s`);
    }
  }, 60_000);

  it("takes a phone's OsmAnd fixes at the OsmAnd port's root, as a Traccar server's port 5055 does, and lists the phone where it is", async () => {
    const imei = "358240051111999";
    const { q, id } = await addDevice("Phone", imei);
    expect(fleet.osmandUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(fleet.osmandUrl).not.toBe(fleet.url);
    const sent = await fetch(`${fleet.osmandUrl}/?id=${imei}&lat=54.7011&lon=25.2622&timestamp=${Math.floor(Date.now() / 1000) - 5}&speed=10`);
    expect(sent.status).toBe(200);
    let item: { id: number; lat: number; lng: number; speed: number } | undefined;
    await waitFor("the phone in get_devices", async () => {
      const groups = (await call(`/api/get_devices?${q}`)) as unknown as { items: NonNullable<typeof item>[] }[];
      item = groups.flatMap((g) => g.items).find((d) => d.id === id && d.lat !== 0);
      return item !== undefined;
    }, 20_000, 100);
    // 10 knots.
    expect(item).toMatchObject({ lat: 54.7011, lng: 25.2622, speed: 19 });
  });
});
