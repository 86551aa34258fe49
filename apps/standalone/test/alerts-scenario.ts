import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { waitFor, type SmtpTestServer } from "@fleet/testkit";

/*
 * The alerts flow as the vendor's clients drive it, run against the all-in-one process and
 * against the services on Kafka, Postgres and Redis alike: a geofence and a geofence_inout
 * alert made through the API, a track pushed through insert.php that enters the geofence and
 * leaves it, then exactly one in-event and one out-event in get_events and
 * get_devices_latest, two webhook bodies at a real HTTP server and two mails at a real SMTP
 * server; and beside them a move_start alert, whose one event (the van starting from a stand)
 * is listed and notifies nobody.
 */

interface EventRecord {
  id: number;
  type: string;
  geofence_id: number | null;
  device_id: number;
  message: string;
}

export interface HookBody {
  event: { type: string; geofenceId: number | null; id: number };
  geofence?: { name: string };
}

/** A real HTTP server that keeps every JSON body POSTed to it. */
export interface HookServer {
  url: string;
  bodies: HookBody[];
  close(): Promise<void>;
}

export async function hookServer(): Promise<HookServer> {
  const bodies: HookBody[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8").on("data", (c: string) => (raw += c));
    req.on("end", () => {
      bodies.push(JSON.parse(raw) as HookBody);
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/fleet`,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface AlertsRig {
  /** Where the API (/api/...) and insert.php are served. */
  baseUrl: string;
  admin: { email: string; password: string };
  smtp: SmtpTestServer;
  hooks: HookServer;
}

export async function alertsScenario(rig: AlertsRig): Promise<void> {
  const login = await fetch(new URL("/api/login", rig.baseUrl), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(rig.admin) });
  const hash = ((await login.json()) as { user_api_hash: string }).user_api_hash;
  const api = async <T>(method: "GET" | "POST", endpoint: string, body?: unknown): Promise<T> => {
    const url = new URL(`/api/${endpoint}`, rig.baseUrl);
    url.searchParams.set("lang", "en");
    url.searchParams.set("user_api_hash", hash);
    const res = await fetch(url, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as T;
    expect(res.status, `${endpoint}: ${JSON.stringify(json)}`).toBe(200);
    return json;
  };

  const imei = `alerts-e2e-${Date.now()}`;
  const device = (await api<{ id: number }>("POST", "add_device", { name: "Van 7", imei, icon_id: 1, fuel_measurement_id: 1, tail_length: 5, min_moving_speed: 6, min_fuel_fillings: 10, min_fuel_thefts: 10 })).id;
  const depot = (await api<{ id: number }>("POST", "add_geofence", { name: "Depot", polygon_color: "#ff0000", type: "circle", center: { lat: 54.7, lng: 25.3 }, radius: 300 })).id;
  await api("POST", "add_alert", {
    name: "Depot watch",
    type: "geofence_inout",
    devices: [device],
    geofences: [depot],
    notifications: { webhook: { active: true, input: rig.hooks.url }, email: { active: true, input: "dispatch@fleet.test" } },
  });
  await api("POST", "add_alert", { name: "Departures", type: "move_start", devices: [device] });
  const before = (await api<{ time: number }>("GET", "get_devices_latest")).time;

  // Outside (standing), inside twice, outside twice (driving): a minute apart, an hour ago.
  const t0 = Date.now() - 3_600_000;
  const track = [
    [54.69, 25.28],
    [54.7, 25.3],
    [54.7001, 25.3001],
    [54.69, 25.28],
    [54.689, 25.279],
  ] as const;
  for (const [i, [lat, lng]] of track.entries()) {
    const q = new URLSearchParams({ uniqueId: imei, protocol: "osmand", latitude: String(lat), longitude: String(lng), altitude: "100", course: "90", speed: i === 0 ? "0" : "20", fixTime: String(t0 + i * 60_000) });
    const res = await fetch(new URL(`/insert.php?${q}`, rig.baseUrl));
    expect(await res.json()).toEqual({ status: 1 });
  }

  const events = async () => (await api<{ items: { data: EventRecord[] } }>("GET", `get_events?device_id=${device}`)).items.data;
  await waitFor("three events", async () => (await events()).length >= 3, 60_000);
  await waitFor("two webhook bodies", () => rig.hooks.bodies.length >= 2, 30_000);
  const mails = [await rig.smtp.mailTo("dispatch@fleet.test", { timeoutMs: 30_000 }), await rig.smtp.mailTo("dispatch@fleet.test", { skip: 1, timeoutMs: 30_000 })];
  // Room for a duplicate to show, then none.
  await new Promise((r) => setTimeout(r, 2000));

  const all = (await events()).sort((a, b) => a.id - b.id);
  expect(all.filter((e) => e.type === "move_start").map((e) => e.message)).toEqual(["Started moving"]);
  const listed = all.filter((e) => e.type !== "move_start");
  expect(listed.map((e) => [e.type, e.geofence_id, e.message])).toEqual([
    ["geofence_in", depot, "Entered Depot"],
    ["geofence_out", depot, "Left Depot"],
  ]);
  const polled = (await api<{ events: { id: number; geofence: { name: string } | null }[] }>("GET", `get_devices_latest?time=${before}`)).events;
  expect(polled.map((e) => e.id)).toEqual(all.map((e) => e.id));
  expect(polled.filter((e) => listed.some((l) => l.id === e.id)).map((e) => e.geofence?.name)).toEqual(["Depot", "Depot"]);
  expect(rig.hooks.bodies.map((h) => [h.event.type, h.event.geofenceId, h.geofence?.name]).sort()).toEqual([
    ["geofence_in", depot, "Depot"],
    ["geofence_out", depot, "Depot"],
  ]);
  expect(rig.hooks.bodies.map((h) => h.event.id).sort()).toEqual(listed.map((e) => e.id));
  expect(mails.map((m) => m.subject).sort()).toEqual(["Depot watch: Entered Depot (Van 7)", "Depot watch: Left Depot (Van 7)"]);
  expect(rig.smtp.received.filter((m) => m.to.includes("dispatch@fleet.test"))).toHaveLength(2);
}
