/**
 * The embedded server (`pnpm start`) as a vendor client meets it: records seeded through the
 * API only, a track pushed through insert.php that makes the rules fire, then one valid
 * request per operation of the vendor's Swagger (it implements them all), each answer
 * checked against that operation's 200 schema (vendor-swagger-cases.ts holds the table).
 */
import { createServer, type Server } from "node:http";
import { rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { tempPglite, waitFor } from "@fleet/testkit";
import { startStandalone, type Standalone } from "../src/main.js";
import { swagger, swaggerErrors, type JsonSchema } from "../../api/test/swagger.js";
import {
  ADMIN,
  CASES,
  PNG_BASE64,
  circleBody,
  customEventBody,
  deviceBody,
  mapIconBody,
  polygonBody,
  reportBody,
  routeBody,
  sensorBody,
  serviceBody,
  setupBody,
  taskBody,
  type Case,
  type Reply,
  type Req,
  type Seeded,
} from "./vendor-swagger-cases.js";

const silent = pino({ level: "silent" });
const METHODS = new Set(["get", "post", "put", "delete", "patch"]);
const swaggerOps = Object.entries(swagger.paths).flatMap(([p, ops]) => Object.keys(ops).filter((m) => METHODS.has(m)).map((m) => `${m} ${p}`));

let fleet: Standalone;
let adminHash = "";

/** One request the way a vendor client sends it: `lang` and `user_api_hash` in the query, JSON or form bodies. */
async function call(op: string, req: Req = {}): Promise<Reply> {
  const [method, template] = op.split(" ") as [string, string];
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (req.params?.[name] === undefined) throw new Error(`${op}: no value for {${name}}`);
    return encodeURIComponent(String(req.params[name]));
  });
  // Under the Swagger's basePath, as a client built from it calls: insert.php too (devices use the root's).
  const url = new URL(`/api${filled}`, fleet.url);
  if (!req.anonymous) {
    url.searchParams.set("lang", "en");
    url.searchParams.set("user_api_hash", req.as ? await login(req.as) : adminHash);
  }
  for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, String(v));
  const init: RequestInit = { method: method.toUpperCase() };
  if (req.form) init.body = new URLSearchParams(req.form);
  if (req.body !== undefined) Object.assign(init, { body: JSON.stringify(req.body), headers: { "content-type": "application/json" } });
  const res = await fetch(url, init);
  const contentType = res.headers.get("content-type") ?? "";
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, contentType, body: contentType.startsWith("application/json") ? JSON.parse(bytes.toString("utf8")) : bytes };
}

async function login(account: { email: string; password: string }): Promise<string> {
  const reply = await call("post /login", { anonymous: true, form: account });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as { user_api_hash: string }).user_api_hash;
}

/** A seeding call that must succeed; the new record's id. */
async function make(op: string, req: Req): Promise<number> {
  const reply = await call(op, req);
  expect(reply.status, `${op}: ${JSON.stringify(reply.body)}`).toBe(200);
  const answer = reply.body as { id?: number; item?: { id: number } };
  const id = answer.id ?? answer.item?.id;
  expect(id, `${op} gave no id: ${JSON.stringify(answer)}`).toBeTypeOf("number");
  return id!;
}

/** Keeps the PNG of PNG_BASE64 as a photo of the device (our upload: the Swagger has none); its file name. */
async function photo(deviceId: number): Promise<string> {
  const reply = await call("post /devices/{device_id}/media", { params: { device_id: deviceId }, body: { file: `data:image/png;base64,${PNG_BASE64}` } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as { data: { url: string } }).data.url.split("/").at(-1)!;
}

/** An SMS gateway that takes every message, so send_sms_command has somewhere to send. */
async function smsGateway(): Promise<Server> {
  const server = createServer((_req, res) => res.end("OK"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

/** Noon yesterday (UTC, the account's timezone), a fix every 20 s. */
const TRACK_START = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 1, 12);
/**
 * North along 25.28° E from 54.66° N: through the square (fixes 8–14) and the circle (20–23),
 * at 40 and 120 km/h in turn (so the 90 km/h alert sees under→over edges), the battery under
 * 20 for fixes 25–27 (the custom event's condition).
 */
const TRACK = Array.from({ length: 30 }, (_, k) => ({ lat: 54.66 + k * 0.0028, kmh: k % 4 < 2 ? 40 : 120, batt: k >= 25 && k <= 27 ? 10 : 60, time: TRACK_START + k * 20_000 }));

async function seed(smsGatewayUrl: string): Promise<Seeded> {
  const device = (name: string, imei: string, extra: Record<string, unknown> = {}) => make("post /add_device", { body: deviceBody(name, imei, extra) });
  const day = new Date(TRACK_START).toISOString().slice(0, 10);
  const deviceGroup = await make("post /devices_groups/store", { body: { title: "Vans" } });
  const van = await device("Van 1", "860000000000901", { group_id: deviceGroup, sim_number: "+37060000001", plate_number: "VS-001", vin: "WVWZZZ1JZXW000001", device_model: "FMB920" });
  const device2 = await device("Van 2", "860000000000902");
  const geofenceGroup = await make("post /geofences_groups/store", { body: { title: "Zones" } });
  const polygon = await make("post /add_geofence", { body: { ...polygonBody("Old town"), group_id: geofenceGroup } });
  const circle = await make("post /add_geofence", { body: circleBody("Depot") });
  const route = await make("post /add_route", { body: routeBody("Ring road") });
  const mapIcon = await make("post /add_map_icon", { body: mapIconBody("Depot") });
  const customEvent = await make("post /add_custom_event", { body: customEventBody("Battery low") });
  const overspeedAlert = await make("post /add_alert", { body: { name: "Too fast", type: "overspeed", devices: [van], overspeed: 90 } });
  await make("post /add_alert", { body: { name: "Zones", type: "geofence_inout", devices: [van], geofences: [polygon, circle] } });
  await make("post /add_alert", { body: { name: "Battery", type: "custom", devices: [van], events_custom: [customEvent] } });
  const task = await make("post /add_task", { body: taskBody(van, "Delivery") });
  const signed = await call("post /edit_task/{id}", { params: { id: task }, body: { status: 2, status_comment: "Signed", signature: `data:image/png;base64,${PNG_BASE64}` } });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  expect((await call("post /edit_setup", { body: setupBody({ smsGateway: smsGatewayUrl, deviceGroup }) })).body).toEqual({ status: 1 });
  const spare = await device("Throwaway van", "860000000000909");
  return {
    device: van,
    device2,
    day,
    polygon,
    circle,
    overspeedAlert,
    customEvent,
    driver: await make("post /add_user_driver", { body: { device_id: van, name: "Jonas", rfid: "RFID-1" } }),
    sensor: await make("post /add_sensor", { query: { device_id: van }, body: sensorBody(van, "Ignition") }),
    service: await make("post /add_service", { query: { device_id: van }, body: serviceBody(van, "Oil") }),
    route,
    mapIcon,
    gprsTemplate: await make("post /add_user_gprs_template", { body: { title: "Reboot", message: "RESET#", protocol: "osmand" } }),
    smsTemplate: await make("post /add_user_sms_template", { body: { title: "Locate", message: "WHERE#" } }),
    task,
    taskStatus: (signed.body as { item: { statuses: { id: number }[] } }).item.statuses.at(-1)!.id,
    media: await photo(van),
    report: await make("post /add_report", { body: reportBody({ device: van, polygon }, "Daily summary") }),
    deviceGroup,
    geofenceGroup,
    routeGroup: await make("post /routes_groups/store", { body: { title: "Roads", routes: [route] } }),
    poiGroup: await make("post /pois_groups/store", { body: { title: "Places", pois: [mapIcon] } }),
    sharing: await make("post /sharing", { body: { name: "Customer", devices: [van] } }),
    callAction: await make("post /call_actions/store", { body: { device_id: van, alert_id: overspeedAlert, response_type: "no_answer", remarks: "Rang twice" } }),
    company: await make("post /admin/companies", { body: { name: "Acme UAB", vat_number: "LT100200300" } }),
    client: await make("post /admin/client", { body: { email: "managed-client@vendor-swagger.test", password: "managed-secret", password_confirmation: "managed-secret" } }),
    smsGateway: smsGatewayUrl,
    throwaway: {
      device: spare,
      sensor: await make("post /add_sensor", { query: { device_id: spare }, body: sensorBody(spare, "Spare") }),
      service: await make("post /add_service", { query: { device_id: spare }, body: serviceBody(spare, "Spare") }),
      alert: await make("post /add_alert", { body: { name: "Spare", type: "overspeed", devices: [spare], overspeed: 50 } }),
      customEvent: await make("post /add_custom_event", { body: customEventBody("Spare") }),
      geofence: await make("post /add_geofence", { body: circleBody("Spare") }),
      route: await make("post /add_route", { body: routeBody("Spare") }),
      report: await make("post /add_report", { body: reportBody({ device: spare, polygon }, "Spare") }),
      mapIcon: await make("post /add_map_icon", { body: mapIconBody("Spare") }),
      driver: await make("post /add_user_driver", { body: { device_id: spare, name: "Spare" } }),
      gprsTemplate: await make("post /add_user_gprs_template", { body: { title: "Spare", message: "SPARE#", protocol: "osmand" } }),
      smsTemplate: await make("post /add_user_sms_template", { body: { title: "Spare", message: "SPARE#" } }),
      task: await make("post /add_task", { body: taskBody(spare, "Spare") }),
      sharing: await make("post /sharing", { body: { name: "Spare", devices: [spare] } }),
      callAction: await make("post /call_actions/store", { body: { device_id: spare, response_type: "answer" } }),
      company: await make("post /admin/companies", { body: { name: "Spare company" } }),
      clients: [
        await make("post /admin/client", { body: { email: "spare-1@vendor-swagger.test", password: "spare-secret", password_confirmation: "spare-secret" } }),
        await make("post /admin/client", { body: { email: "spare-2@vendor-swagger.test", password: "spare-secret", password_confirmation: "spare-secret" } }),
      ],
      media: await photo(spare),
    },
    // Last, once the device has its driver, sensor and alerts.
    position: await pushTrack(van, day),
  };
}

/** Sends TRACK for the device and waits for the tracker and the rules; one of its stored positions' ids. */
async function pushTrack(device: number, day: string): Promise<number> {
  // One at a time, so the rules see the fixes in order.
  for (const fix of TRACK) {
    const query = { uniqueId: "860000000000901", protocol: "osmand", latitude: fix.lat.toFixed(6), longitude: "25.280000", altitude: "100", course: "0", speed: (fix.kmh / 1.852).toFixed(3), fixTime: String(fix.time), "attributes[ignition]": "true", "attributes[batt]": String(fix.batt) };
    expect((await call("get /insert.php", { anonymous: true, query })).body).toEqual({ status: 1 });
  }
  const range = { device_id: device, from_date: day, from_time: "00:00", to_date: day, to_time: "23:59" };
  const messages = async () => (await call("get /get_history_messages", { query: { ...range, limit: 50 } })).body as { messages: { total: number; data: { id: string }[] } };
  await waitFor("the track in get_history_messages", async () => (await messages()).messages.total === TRACK.length, 30_000, 100);
  // Every kind of event the alerts make, so get_events is checked on pages that have events.
  const types = async () => ((await call("get /get_events", { query: { device_id: device } })).body as { items: { data: { type: string }[] } }).items.data.map((e) => e.type);
  const count = (all: string[], type: string) => all.filter((t) => t === type).length;
  await waitFor(
    "overspeed, geofence and custom events",
    async () => {
      const all = await types();
      return count(all, "overspeed") >= 1 && count(all, "geofence_in") === 2 && count(all, "geofence_out") === 2 && count(all, "custom") === 1;
    },
    30_000,
    100,
  );
  // The record gives ids as text; the Swagger's delete_history_positions takes integers.
  return Number((await messages()).messages.data[0]!.id);
}

const caseName = (c: Case) => (c.label ? `${c.op} (${c.label})` : c.op);
const schemaOf = (op: string): JsonSchema | undefined => {
  const [method, p] = op.split(" ") as [string, string];
  return swagger.paths[p]?.[method]?.responses["200"]?.schema;
};

describe("the vendor Swagger's operations in embedded mode", () => {
  let dataDir: string;
  let gateway: Server;
  let seeded: Seeded;

  beforeAll(async () => {
    dataDir = (await tempPglite()).dataDir;
    gateway = await smsGateway();
    const config = loadConfig(StandaloneEnvSchema, {
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      FLEET_ADMIN_EMAIL: ADMIN.email,
      FLEET_ADMIN_PASSWORD: ADMIN.password,
      TRACKER_FLUSH_MS: "200",
      // register is a Swagger operation; sign-up is off unless asked for.
      FLEET_ALLOW_REGISTRATION: "true",
      // The test's SMS gateway listens on loopback.
      OUTBOUND_ALLOW_PRIVATE: "true",
    });
    fleet = await startStandalone(config, silent);
    adminHash = await login(ADMIN);
    seeded = await seed(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/sms`);
  }, 90_000);

  afterAll(async () => {
    await fleet?.close();
    if (gateway) await new Promise((r) => gateway.close(r));
    await rm(dataDir, { recursive: true, force: true });
  });

  it("checks every operation of the Swagger", () => {
    const checked = new Set(CASES.map((c) => c.op));
    expect(swaggerOps.filter((op) => !checked.has(op)), "Swagger operations no case checks").toEqual([]);
    expect([...checked].filter((op) => !swaggerOps.includes(op)), "cases of operations the Swagger does not have").toEqual([]);
  });

  it.each(CASES.map((c) => [caseName(c), c] as const))("%s answers 2xx as the Swagger's 200 response says", async (_, c) => {
    const reply = await call(c.op, c.request(seeded));
    const shown = reply.body instanceof Buffer ? `${reply.body.length} bytes of ${reply.contentType}` : JSON.stringify(reply.body)?.slice(0, 2000);
    expect(reply.status, shown).toBeGreaterThanOrEqual(200);
    expect(reply.status, shown).toBeLessThan(300);
    const schema = schemaOf(c.op);
    if (schema) {
      expect(swaggerErrors(schema, reply.body), shown).toEqual([]);
    } else {
      expect(c.check, "the Swagger gives no 200 schema, so the case must check the answer").toBeDefined();
    }
    await c.check?.(reply, seeded);
  });
});
