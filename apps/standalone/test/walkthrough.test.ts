/*
 * The API part 1 acceptance walk, over real HTTP against the embedded system (`pnpm start`):
 * an administrator creates a user; the user logs in, sets the account up, adds a device,
 * two drivers, three sensors and two services, and pushes positions through insert.php
 * whose attributes carry an RFID, ignition, temperature and fuel. The live list must then
 * show the sensor values, the engine state, the driver the RFID chose and the services'
 * state, computed from what the tracker stored.
 */
import { rm } from "node:fs/promises";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { tempPglite, waitFor } from "@fleet/testkit";
import { startStandalone, type Standalone } from "../src/main.js";

const admin = { email: "admin@walk.test", password: "walk-secret" };

interface LiveItem {
  id: number;
  timestamp: number;
  driver: string;
  engine_status: boolean | null;
  sensors: { name: string; value: string; show_in_popup: string }[];
  services: { name: string; value: string; expiring: boolean }[];
  device_data: { name: string; group_id: string | null };
}

describe("a new user's first steps, end to end in embedded mode", () => {
  let dataDir: string;
  let fleet: Standalone;

  beforeAll(async () => {
    dataDir = (await tempPglite()).dataDir;
    const config = loadConfig(StandaloneEnvSchema, { DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", FLEET_ADMIN_EMAIL: admin.email, FLEET_ADMIN_PASSWORD: admin.password, TRACKER_FLUSH_MS: "100" });
    fleet = await startStandalone(config, pino({ level: "silent" }));
  });

  afterAll(async () => {
    await fleet?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  // The walk reads a few fields from many response shapes; the API tests check those shapes
  // against their schemas, so here the bodies are read loosely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function call(method: "GET" | "POST", url: string, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await fetch(new URL(url, fleet.url), {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await res.json();
    expect(res.status, `${method} ${url} → ${JSON.stringify(json)}`).toBe(200);
    return { status: res.status, json };
  }

  it("login → setup → device → driver, sensors, services → positions → live list", async () => {
    const adminHash = (await call("POST", "/api/login", admin)).json.user_api_hash as string;
    const user = { email: "fleet.owner@walk.test", password: "owner-secret-1" };
    await call("POST", `/api/admin/client?lang=en&user_api_hash=${adminHash}`, { ...user, password_confirmation: user.password, devices_limit: 5 });

    const hash = (await call("POST", "/api/login", user)).json.user_api_hash as string;
    const api = (p: string) => `/api/${p}${p.includes("?") ? "&" : "?"}lang=en&user_api_hash=${hash}`;

    // Setup: UTC+02:00 (catalogue id 65), kilometres, one device group.
    expect((await call("GET", api("edit_setup_data"))).json.item.email).toBe(user.email);
    await call("POST", api("edit_setup"), { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 65, sms_gateway: 0, groups: [{ title: "Vans" }] });
    const group = (await call("GET", api("edit_setup_data"))).json.groups.find((g: { title: string }) => g.title === "Vans");
    expect(group).toBeDefined();

    const imei = `walk-${Date.now()}`;
    const deviceId = (await call("POST", api("add_device"), { name: "Van 1", imei, icon_id: 1, fuel_measurement_id: 1, tail_length: 5, min_moving_speed: 6, min_fuel_fillings: 10, min_fuel_thefts: 10, group_id: group.id })).json.id as number;
    await call("POST", api("edit_device?device_id=" + deviceId), { detect_engine: "ignition" });

    // Two drivers; Bob, saved last, is current until a card says otherwise.
    await call("POST", api("add_user_driver"), { device_id: deviceId, name: "Alice", rfid: "A1B2C3" });
    await call("POST", api("add_user_driver"), { device_id: deviceId, name: "Bob", rfid: "B0B0B0" });

    await call("POST", api(`add_sensor?device_id=${deviceId}`), { device_id: deviceId, sensor_type: "ignition", sensor_name: "Ignition", unit_of_measurement: "", tag_name: "ignition", on_value: "true", off_value: "false", show_in_popup: 1 });
    await call("POST", api(`add_sensor?device_id=${deviceId}`), { device_id: deviceId, sensor_type: "temperature", sensor_name: "Cargo temp", unit_of_measurement: "°C", tag_name: "temp1", formula: "[value]*0.1", show_in_popup: 1 });
    await call("POST", api(`add_sensor?device_id=${deviceId}`), { device_id: deviceId, sensor_type: "fuel_tank_calibration", sensor_name: "Fuel", unit_of_measurement: "l", tag_name: "fuel", calibrations: [{ key: 0, value: 0 }, { key: 1000, value: 80 }], show_in_popup: 0 });

    // Oil every 10 km, reminding from 0.1 km on; an inspection due in 15 days, reminding 30 days ahead.
    await call("POST", api(`add_service?device_id=${deviceId}`), { device_id: deviceId, name: "Oil change", expiration_by: "odometer", interval: 10, last_service: 0, trigger_event_left: 9.9, renew_after_expiration: 0 });
    const lastInspection = new Date(Date.now() + 2 * 3600_000 - 350 * 86_400_000).toISOString().slice(0, 10);
    await call("POST", api(`add_service?device_id=${deviceId}`), { device_id: deviceId, name: "Inspection", expiration_by: "days", interval: 365, last_service: lastInspection, trigger_event_left: 30, renew_after_expiration: 0 });

    // Two fixes 30 s apart, about 1.1 km apart, ignition on at both, Alice's card in the reader.
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const attributes = JSON.stringify({ ignition: true, temp1: 215, fuel: 500, rfid: "a1b2c3" });
    for (const [i, lat] of [54.68, 54.69].entries()) {
      const q = new URLSearchParams({ uniqueId: imei, protocol: "osmand", latitude: String(lat), longitude: "25.28", altitude: "120", course: "0", speed: "20", fixTime: String(t0 + i * 30_000), attributes });
      const res = await fetch(new URL(`/insert.php?${q}`, fleet.url));
      expect(res.status).toBe(200);
    }

    let item: LiveItem | undefined;
    await waitFor(
      "the live list to show the newest fix and Alice",
      async () => {
        const groups = (await call("GET", api("get_devices"))).json as { title: string; items: LiveItem[] }[];
        item = groups.find((g) => g.title === "Vans")?.items.find((i) => i.id === deviceId);
        return item?.timestamp === (t0 + 30_000) / 1000 && item.driver === "Alice";
      },
      30_000,
      100,
    );
    const live = item!;
    expect(live.device_data.name).toBe("Van 1");
    expect(live.engine_status).toBe(true);
    expect(live.sensors).toEqual([
      { name: "Ignition", value: "On", show_in_popup: "1" },
      { name: "Cargo temp", value: "21.5 °C", show_in_popup: "1" },
      { name: "Fuel", value: "40 l", show_in_popup: "0" },
    ]);
    const services = new Map(live.services.map((s) => [s.name, s]));
    // ~1.1 km driven of 10: 8.9 left, shown rounded up; within the 9.9 km reminder window.
    expect(services.get("Oil change")).toEqual({ name: "Oil change", value: "9 km left", expiring: true });
    expect(services.get("Inspection")).toEqual({ name: "Inspection", value: "15 days left", expiring: true });

    // The engine ran between the two fixes: 30 s of engine hours, and the odometer moved.
    const serviceData = (await call("GET", api(`add_service_data?device_id=${deviceId}`))).json;
    expect(Number(serviceData.engine_hours_value)).toBeCloseTo(30 / 3600, 2);
    expect(Number(serviceData.odometer_value)).toBeGreaterThan(1);
    expect(Number(serviceData.odometer_value)).toBeLessThan(1.2);

    // The same state through the changed-since poll, where sensors and services are JSON text.
    const latest = (await call("GET", api("get_devices_latest"))).json as { items: (Omit<LiveItem, "sensors" | "services"> & { sensors: string; services: string })[] };
    const polled = latest.items.find((i) => i.id === deviceId)!;
    expect(polled.driver).toBe("Alice");
    expect(JSON.parse(polled.sensors)).toEqual(live.sensors);
    expect(JSON.parse(polled.services)).toEqual(live.services);
  }, 120_000);
});
