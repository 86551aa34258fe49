/**
 * Alerts end to end in embedded mode (`pnpm start`), driven the way the vendor's clients
 * drive it: a geofence and a geofence_inout alert made through the API, a track pushed
 * through insert.php that enters the geofence and leaves it, then exactly one in-event and
 * one out-event in get_events and get_devices_latest, two webhook bodies at a real HTTP
 * server and two mails at a real SMTP server.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { smtpTestServer, waitFor, type SmtpTestServer } from "@fleet/testkit";
import { startStandalone, type Standalone } from "../src/main.js";

const admin = { email: "admin@alerts-e2e.test", password: "alerts-e2e-secret" };

interface EventRecord {
  id: number;
  type: string;
  geofence_id: number | null;
  device_id: number;
  message: string;
}

describe("alerts end to end in embedded mode", () => {
  let dataDir: string;
  let fleet: Standalone;
  let smtp: SmtpTestServer;
  let hookServer: Server;
  const hooks: { event: { type: string; geofenceId: number | null; id: number }; geofence?: { name: string } }[] = [];
  let hash: string;

  const api = async <T>(method: "GET" | "POST", endpoint: string, body?: unknown): Promise<T> => {
    const url = new URL(`/api/${endpoint}`, fleet.url);
    url.searchParams.set("lang", "en");
    url.searchParams.set("user_api_hash", hash);
    const res = await fetch(url, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as T;
    expect(res.status, `${endpoint}: ${JSON.stringify(json)}`).toBe(200);
    return json;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "fleet-alerts-e2e-"));
    smtp = await smtpTestServer();
    hookServer = createServer((req, res) => {
      let raw = "";
      req.setEncoding("utf8").on("data", (c: string) => (raw += c));
      req.on("end", () => {
        hooks.push(JSON.parse(raw) as (typeof hooks)[number]);
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((r) => hookServer.listen(0, "127.0.0.1", r));
    const config = loadConfig(StandaloneEnvSchema, {
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      FLEET_ADMIN_EMAIL: admin.email,
      FLEET_ADMIN_PASSWORD: admin.password,
      TRACKER_FLUSH_MS: "200",
      SMTP_URL: smtp.url,
      // The webhook server of this test listens on loopback.
      OUTBOUND_ALLOW_PRIVATE: "true",
    });
    fleet = await startStandalone(config, pino({ level: "silent" }));
    const login = await fetch(new URL("/api/login", fleet.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(admin) });
    hash = ((await login.json()) as { user_api_hash: string }).user_api_hash;
  }, 120_000);

  afterAll(async () => {
    await fleet?.close();
    await smtp?.close();
    await new Promise<void>((r) => (hookServer ? hookServer.close(() => r()) : r()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it("fires one in-event and one out-event for a track through a geofence, listed and notified once each", async () => {
    const imei = `alerts-e2e-${Date.now()}`;
    const device = (await api<{ id: number }>("POST", "add_device", { name: "Van 7", imei, icon_id: 1, fuel_measurement_id: 1, tail_length: 5, min_moving_speed: 6, min_fuel_fillings: 10, min_fuel_thefts: 10 })).id;
    const depot = (await api<{ id: number }>("POST", "add_geofence", { name: "Depot", polygon_color: "#ff0000", type: "circle", center: { lat: 54.7, lng: 25.3 }, radius: 300 })).id;
    const hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/fleet`;
    await api("POST", "add_alert", {
      name: "Depot watch",
      type: "geofence_inout",
      devices: [device],
      geofences: [depot],
      notifications: { webhook: { active: true, input: hookUrl }, email: { active: true, input: "dispatch@fleet.test" } },
    });
    const before = (await api<{ time: number }>("GET", "get_devices_latest")).time;

    // Outside, inside twice, outside twice: a minute apart, an hour ago.
    const t0 = Date.now() - 3_600_000;
    const track = [
      [54.69, 25.28],
      [54.7, 25.3],
      [54.7001, 25.3001],
      [54.69, 25.28],
      [54.689, 25.279],
    ] as const;
    for (const [i, [lat, lng]] of track.entries()) {
      const q = new URLSearchParams({ uniqueId: imei, protocol: "osmand", latitude: String(lat), longitude: String(lng), altitude: "100", course: "90", speed: "20", fixTime: String(t0 + i * 60_000) });
      const res = await fetch(new URL(`/insert.php?${q}`, fleet.url));
      expect(await res.json()).toEqual({ status: 1 });
    }

    const events = async () => (await api<{ items: { data: EventRecord[] } }>("GET", `get_events?device_id=${device}`)).items.data;
    await waitFor("two events", async () => (await events()).length >= 2, 60_000);
    await waitFor("two webhook bodies", () => hooks.length >= 2, 30_000);
    const mails = [await smtp.mailTo("dispatch@fleet.test", { timeoutMs: 30_000 }), await smtp.mailTo("dispatch@fleet.test", { skip: 1, timeoutMs: 30_000 })];
    // Room for a duplicate to show, then none.
    await new Promise((r) => setTimeout(r, 2000));

    const listed = (await events()).sort((a, b) => a.id - b.id);
    expect(listed.map((e) => [e.type, e.geofence_id, e.message])).toEqual([
      ["geofence_in", depot, "Entered Depot"],
      ["geofence_out", depot, "Left Depot"],
    ]);
    const polled = (await api<{ events: { id: number; geofence: { name: string } | null }[] }>("GET", `get_devices_latest?time=${before}`)).events;
    expect(polled.map((e) => [e.id, e.geofence?.name])).toEqual(listed.map((e) => [e.id, "Depot"]));
    expect(hooks.map((h) => [h.event.type, h.event.geofenceId, h.geofence?.name]).sort()).toEqual([
      ["geofence_in", depot, "Depot"],
      ["geofence_out", depot, "Depot"],
    ]);
    expect(hooks.map((h) => h.event.id).sort()).toEqual(listed.map((e) => e.id));
    expect(mails.map((m) => m.subject).sort()).toEqual(["Depot watch: Entered Depot (Van 7)", "Depot watch: Left Depot (Van 7)"]);
    expect(smtp.received.filter((m) => m.to.includes("dispatch@fleet.test"))).toHaveLength(2);
  }, 180_000);
});
