import { describe, expect, it } from "vitest";
import {
  AddSensorDataResponseSchema,
  AddSensorResponseSchema,
  EditSensorDataResponseSchema,
  GetDevicesLatestResponseSchema,
  GetDevicesResponseSchema,
  GetSensorsResponseSchema,
  LiveSensorSchema,
  OkSchema,
  SensorTypeLabels,
  type LiveDeviceItem,
  type SensorRecord,
} from "@fleet/contracts";
import { createDevice, type CreateDeviceInput } from "@fleet/db";
import { SENSOR_TYPES, SENSOR_TYPE_RULES, type SensorType } from "@fleet/sensors";
import { Type } from "@sinclair/typebox";
import { describeApi, expectSchema, failure, invalid, liveState, newImei, nextSecond, ok, type ApiHarness, type BodyEncoding, type TestUser } from "./fixture.js";

/** A complete, valid add_sensor body per type (device_id goes in the query unless a test says otherwise). */
const VALID: Record<SensorType, Record<string, unknown>> = {
  acc: { tag_name: "io1", on_value: "1", off_value: "0" },
  door: { tag_name: "door", on_value: "open", off_value: "closed" },
  engine: { tag_name: "io2", on_value: "1", off_value: "0" },
  ignition: { tag_name: "ignition", on_value: "true", off_value: "false" },
  harsh_acceleration: { tag_name: "alarm", on_value: "hardAcceleration" },
  harsh_breaking: { tag_name: "alarm", on_value: "hardBraking" },
  battery: { tag_name: "power", unit_of_measurement: "V", formula: "[value]/1000" },
  gsm: { tag_name: "rssi", unit_of_measurement: "%", shown_value_by: "min_max_values", min_value: "0", max_value: "31" },
  satellites: { tag_name: "sat" },
  tachometer: { tag_name: "rpm", unit_of_measurement: "rpm" },
  temperature: { tag_name: "temp1", unit_of_measurement: "°C", formula: "[value]*0.1" },
  fuel_tank: { tag_name: "fuel", unit_of_measurement: "l", full_tank: "80", full_tank_value: "4000", fuel_tank_name: "Main" },
  fuel_tank_calibration: { tag_name: "adc1", unit_of_measurement: "l", calibrations: [{ key: 0, value: 0 }, { key: 1000, value: 60 }] },
  odometer: { odometer_value_by: "connected_odometer", tag_name: "odometer", formula: "[value]/1000" },
  engine_hours: { tag_name: "hours" },
};

function sensorBody(type: SensorType, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { sensor_type: type, sensor_name: `My ${type}`, unit_of_measurement: "", show_in_popup: 1, ...VALID[type], ...overrides };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

async function addSensor(h: ApiHarness, user: TestUser, deviceId: number, body: Record<string, unknown>, as: BodyEncoding = "json"): Promise<number> {
  return ok(await h.post("/add_sensor", { user, query: { device_id: deviceId }, body, as }), AddSensorResponseSchema).id;
}

async function sensorItem(h: ApiHarness, user: TestUser, sensorId: number): Promise<SensorRecord> {
  return ok(await h.get("/edit_sensor_data", { user, query: { sensor_id: sensorId } }), EditSensorDataResponseSchema).item;
}

async function sensorsOf(h: ApiHarness, user: TestUser, deviceId: number) {
  return ok(await h.get("/get_sensors", { user, query: { device_id: deviceId, per_page: 100 } }), GetSensorsResponseSchema);
}

/** A device made in the records store directly, for the columns add_device does not take (detect_engine, engine_hours). */
async function deviceWith(h: ApiHarness, user: TestUser, columns: Partial<CreateDeviceInput>): Promise<number> {
  const d = await createDevice(h.db, user.id, { name: "Truck", imei: newImei(), iconId: 1, fuelMeasurementId: 1, tailLength: 5, minMovingSpeed: 6, minFuelFillings: 10, minFuelThefts: 10, ...columns });
  return d.id;
}

async function liveItems(h: ApiHarness, user: TestUser): Promise<Map<number, LiveDeviceItem>> {
  const groups = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema);
  return new Map(groups.flatMap((g) => g.items).map((i) => [i.id, i]));
}

describeApi("sensors", (h) => {
  it("lists every sensor route in the OpenAPI document with its request and failure schemas", async () => {
    const res = await h.inject({ method: "GET", url: "/api/docs/json" });
    const paths = (res.body as { paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>> }).paths;
    for (const [method, path] of [["get", "add_sensor_data"], ["post", "add_sensor"], ["get", "edit_sensor_data"], ["post", "edit_sensor"], ["get", "destroy_sensor"], ["get", "get_sensors"]] as const) {
      const op = paths[`/api/${path}`]?.[method];
      expect(op, path).toBeDefined();
      expect(Object.keys(op!.responses), path).toEqual(expect.arrayContaining(["200", "401", "404", "422"]));
      if (method === "post") expect(op!.requestBody, path).toBeDefined();
    }
  });

  describe("add_sensor_data", () => {
    it("lists the 15 sensor types with the vendor's labels", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const body = ok(await h.get("/add_sensor_data", { user, query: { device_id: device } }), AddSensorDataResponseSchema);
      expect(body).toEqual({ sensors: SensorTypeLabels, device_id: device, route: "add_sensor", status: 1 });
      expect(Object.keys(body.sensors).sort()).toEqual([...SENSOR_TYPES].sort());
    });

    it("answers 404 for a device that does not exist and 422 for an id that is no integer", async () => {
      const user = await h.newUser();
      expect(failure(await h.get("/add_sensor_data", { user, query: { device_id: 2_000_000_000 } }), 404)).toBe("Device not found.");
      expect(invalid(await h.get("/add_sensor_data", { user, query: { device_id: "1 OR 1=1" } }))).toHaveProperty("device_id");
      expect(invalid(await h.get("/add_sensor_data", { user }))).toHaveProperty("device_id");
    });
  });

  describe("add_sensor", () => {
    it.each(SENSOR_TYPES)("creates a %s sensor, which edit_sensor_data reads back", async (type) => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const id = await addSensor(h, user, device, sensorBody(type));
      const item = await sensorItem(h, user, id);
      expect(item).toMatchObject({ id: String(id), user_id: String(user.id), device_id: String(device), type, name: `My ${type}`, show_in_popup: "1", value: "-" });
      if (VALID[type].tag_name !== undefined) expect(item.tag_name).toBe(VALID[type].tag_name);
    });

    it("reads the record's fields back as the spec types them", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const fuel = await sensorItem(h, user, await addSensor(h, user, device, sensorBody("fuel_tank", { formula: "[value]*2" })));
      expect(fuel).toMatchObject({ full_tank: "80", full_tank_value: "4000", fuel_tank_name: "Main", formula: "[value]*2", value_formula: "1", on_value: "", off_value: "", min_value: null, calibrations: null, add_to_history: "0" });
      const cal = await sensorItem(h, user, await addSensor(h, user, device, sensorBody("fuel_tank_calibration")));
      expect(cal.calibrations).toEqual([{ key: 0, value: 0 }, { key: 1000, value: 60 }]);
      const door = await sensorItem(h, user, await addSensor(h, user, device, sensorBody("door", { show_in_popup: 0, formula: "[value]*3" })));
      // A field the type does not use is not kept.
      expect(door).toMatchObject({ on_value: "open", off_value: "closed", formula: null, show_in_popup: "0", odometer_value_unit: "km" });
    });

    it("takes multipart and urlencoded forms, calibrations as calibrations[N][key] fields", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const form = {
        sensor_type: "fuel_tank_calibration",
        sensor_name: "Tank",
        unit_of_measurement: "l",
        tag_name: "adc1",
        show_in_popup: "1",
        "calibrations[0][key]": "500",
        "calibrations[0][value]": "30",
        "calibrations[1][key]": "100",
        "calibrations[1][value]": "0",
      };
      for (const as of ["multipart", "form"] as const) {
        const id = await addSensor(h, user, device, form, as);
        expect(await sensorItem(h, user, id), as).toMatchObject({ tag_name: "adc1", show_in_popup: "1", calibrations: [{ key: 100, value: 0 }, { key: 500, value: 30 }] });
      }
      // Also with device_id only in the body, and with the same id in both places.
      const { id } = ok(await h.post("/add_sensor", { user, body: { ...sensorBody("satellites"), device_id: device }, as: "multipart" }), AddSensorResponseSchema);
      expect((await sensorItem(h, user, id)).device_id).toBe(String(device));
      ok(await h.post("/add_sensor", { user, query: { device_id: device }, body: { ...sensorBody("gsm"), device_id: device } }), AddSensorResponseSchema);
      expect((await sensorsOf(h, user, device)).total).toBe(4);
    });

    it("needs a device_id, one only", async () => {
      const user = await h.newUser();
      const [a, b] = [await h.addDevice(user), await h.addDevice(user)];
      expect(invalid(await h.post("/add_sensor", { user, body: sensorBody("satellites") }))).toHaveProperty("device_id");
      expect(invalid(await h.post("/add_sensor", { user, query: { device_id: a }, body: { ...sensorBody("satellites"), device_id: b } }))).toHaveProperty("device_id");
      expect((await sensorsOf(h, user, a)).total + (await sensorsOf(h, user, b)).total).toBe(0);
    });

    it.each(SENSOR_TYPES)("refuses a %s without any one of its required fields, writing nothing", async (type) => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      for (const field of ["sensor_name", "unit_of_measurement", ...SENSOR_TYPE_RULES[type].required]) {
        const errors = invalid(await h.post("/add_sensor", { user, query: { device_id: device }, body: sensorBody(type, { [field]: undefined }) }));
        expect(errors, `${type} without ${field}`).toHaveProperty(field);
      }
      expect((await sensorsOf(h, user, device)).total).toBe(0);
    });

    it("refuses conditional requirements and bad values by field", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const refused = async (type: SensorType, overrides: Record<string, unknown>) => invalid(await h.post("/add_sensor", { user, query: { device_id: device }, body: sensorBody(type, overrides) }));
      expect(await refused("gsm", { min_value: undefined })).toHaveProperty("min_value");
      expect(await refused("gsm", { min_value: "40" })).toHaveProperty("max_value");
      expect(await refused("battery", { shown_value_by: "formula", formula: undefined })).toHaveProperty("formula");
      expect(await refused("battery", { min_value: "12 volts" })).toHaveProperty("min_value");
      expect(await refused("gsm", { min_value: "low" })).toHaveProperty("min_value");
      expect(await refused("fuel_tank", { full_tank_value: undefined })).toHaveProperty("full_tank_value");
      expect(await refused("fuel_tank_calibration", { calibrations: [{ key: 1, value: 1 }] })).toHaveProperty("calibrations");
      expect(await refused("fuel_tank_calibration", { calibrations: [{ key: 1, value: 1 }, { key: "1", value: 2 }] })).toHaveProperty(["calibrations.1.key"]);
      expect(await refused("odometer", { tag_name: undefined })).toHaveProperty("tag_name");
      expect(await refused("odometer", { odometer_value_by: "by_guess" })).toHaveProperty("odometer_value_by");
      expect(await refused("door", { off_value: "OPEN" })).toHaveProperty("off_value");
      expect((await sensorsOf(h, user, device)).total).toBe(0);
    }, 60_000);

    it("refuses malformed input with 422 and writes nothing", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const bad: Record<string, unknown>[] = [
        sensorBody("battery", { sensor_type: "flux_capacitor" }),
        sensorBody("battery", { sensor_type: ["battery", "gsm"] }),
        sensorBody("battery", { sensor_name: { $ne: null } }),
        sensorBody("battery", { sensor_name: "x".repeat(256) }),
        sensorBody("battery", { sensor_name: "   " }),
        sensorBody("battery", { tag_name: "t".repeat(65) }),
        sensorBody("battery", { formula: `${"1+".repeat(130)}1` }),
        sensorBody("battery", { formula: "process.exit()" }),
        sensorBody("battery", { formula: "[value]; require('child_process').execSync('rm -rf /')" }),
        sensorBody("battery", { formula: "constructor.constructor('return process')()" }),
        sensorBody("battery", { show_in_popup: "maybe" }),
        sensorBody("battery", { min_value: { $gt: 1 } }),
        sensorBody("fuel_tank_calibration", { calibrations: "0:0,100:50" }),
        sensorBody("fuel_tank_calibration", { calibrations: Array.from({ length: 501 }, (_, i) => ({ key: i, value: i })) }),
        sensorBody("ignition", { on_value: "o".repeat(65) }),
        sensorBody("odometer", { odometer_value_by: "virtual_odometer", odometer_value: "1e400" }),
        sensorBody("odometer", { odometer_value_unit: "parsec" }),
      ];
      for (const body of bad) {
        const res = await h.post("/add_sensor", { user, query: { device_id: device }, body });
        expect(res.status, `${JSON.stringify(body).slice(0, 200)} → ${res.text}`).toBe(422);
        invalid(res);
      }
      invalid(await h.post("/add_sensor", { user, query: { device_id: "1; DROP TABLE sensors" }, body: sensorBody("battery") }));
      invalid(await h.post("/add_sensor", { user, query: { device_id: device }, body: [sensorBody("battery")] }));
      expect((await sensorsOf(h, user, device)).total).toBe(0);
    }, 60_000);

    it("stores injection-looking text as plain text", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const name = "'; DROP TABLE sensors; -- <script>alert(1)</script>";
      const id = await addSensor(h, user, device, sensorBody("satellites", { sensor_name: name, tag_name: "sat' OR '1'='1" }));
      expect(await sensorItem(h, user, id)).toMatchObject({ name, tag_name: "sat' OR '1'='1" });
      expect((await sensorsOf(h, user, device)).total).toBe(1);
    });
  });

  describe("edit_sensor_data", () => {
    it("returns the types, the device and the record with its current reading", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const id = await addSensor(h, user, device, sensorBody("battery"));
      await h.live.putStates([{ state: liveState(device, { attributes: { power: 12480 } }), userIds: [user.id] }]);
      const body = ok(await h.get("/edit_sensor_data", { user, query: { sensor_id: id } }), EditSensorDataResponseSchema);
      expect(body).toMatchObject({ sensors: SensorTypeLabels, device_id: device, route: "edit_sensor", status: 1 });
      expect(body.item).toMatchObject({ id: String(id), type: "battery", tag_name: "power", value: "12.48 V", unit_of_measurement: "V", formula: "[value]/1000" });
    });

    it("answers 404 for a sensor that does not exist and 422 for an id that is no integer", async () => {
      const user = await h.newUser();
      expect(failure(await h.get("/edit_sensor_data", { user, query: { sensor_id: 2_000_000_000 } }), 404)).toBe("Sensor not found.");
      expect(invalid(await h.get("/edit_sensor_data", { user, query: { sensor_id: "abc" } }))).toHaveProperty("sensor_id");
      expect(invalid(await h.get("/edit_sensor_data", { user, query: { sensor_id: "99999999999" } }))).toHaveProperty("sensor_id");
    });
  });

  describe("edit_sensor", () => {
    it("rewrites the sensor: the body is the whole sensor, fields left out are cleared", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const id = await addSensor(h, user, device, sensorBody("battery"));
      ok(await h.post("/edit_sensor", { user, query: { sensor_id: id }, body: sensorBody("temperature", { sensor_name: "Cargo", tag_name: "temp2", formula: undefined, show_in_popup: 0, device_id: device }) }), OkSchema);
      expect(await sensorItem(h, user, id)).toMatchObject({ type: "temperature", name: "Cargo", tag_name: "temp2", formula: null, show_in_popup: "0" });
    });

    it("refuses bad input and a move to another device, leaving the sensor as it was", async () => {
      const user = await h.newUser();
      const [device, other] = [await h.addDevice(user), await h.addDevice(user)];
      const id = await addSensor(h, user, device, sensorBody("ignition"));
      const before = await sensorItem(h, user, id);
      expect(invalid(await h.post("/edit_sensor", { user, query: { sensor_id: id }, body: sensorBody("ignition", { on_value: undefined }) }))).toHaveProperty("on_value");
      expect(invalid(await h.post("/edit_sensor", { user, query: { sensor_id: id }, body: sensorBody("nonsense" as SensorType) }))).toHaveProperty("sensor_type");
      expect(invalid(await h.post("/edit_sensor", { user, query: { sensor_id: id }, body: sensorBody("battery", { formula: "eval('1')" }) }))).toHaveProperty("formula");
      expect(invalid(await h.post("/edit_sensor", { user, query: { sensor_id: id }, body: { ...sensorBody("ignition"), device_id: other } }))).toHaveProperty("device_id");
      expect(invalid(await h.post("/edit_sensor", { user, body: sensorBody("ignition") }))).toHaveProperty("sensor_id");
      expect(await sensorItem(h, user, id)).toEqual(before);
    });
  });

  describe("destroy_sensor", () => {
    it("deletes the sensor; a second time it is not found", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const [keep, drop] = [await addSensor(h, user, device, sensorBody("gsm")), await addSensor(h, user, device, sensorBody("acc"))];
      ok(await h.get("/destroy_sensor", { user, query: { sensor_id: drop } }), OkSchema);
      failure(await h.get("/destroy_sensor", { user, query: { sensor_id: drop } }), 404);
      failure(await h.get("/edit_sensor_data", { user, query: { sensor_id: drop } }), 404);
      expect((await sensorsOf(h, user, device)).data.map((s) => s.id)).toEqual([String(keep)]);
    });
  });

  describe("get_sensors", () => {
    it("pages a device's sensors, each with its type's label and reading", async () => {
      const user = await h.newUser();
      const [device, other] = [await h.addDevice(user), await h.addDevice(user)];
      const ids = [];
      for (const type of ["battery", "ignition", "satellites"] as const) ids.push(await addSensor(h, user, device, sensorBody(type)));
      await addSensor(h, user, other, sensorBody("gsm"));
      await h.live.putStates([{ state: liveState(device, { attributes: { sat: 9, ignition: true } }), userIds: [user.id] }]);

      const first = ok(await h.get("/get_sensors", { user, query: { device_id: device, per_page: 2 } }), GetSensorsResponseSchema);
      expect(first).toMatchObject({ status: 1, total: 3, per_page: 2, current_page: 1, last_page: 2, from: 1, to: 2, prev_page_url: null });
      expect(first.next_page_url).toContain("page=2");
      expect(first.data.map((s) => [s.id, s.type_title, s.value])).toEqual([
        [String(ids[0]), "Battery", "-"],
        [String(ids[1]), "Ignition ON/OFF", "On"],
      ]);
      const second = ok(await h.get("/get_sensors", { user, query: { device_id: device, per_page: 2, page: 2 } }), GetSensorsResponseSchema);
      expect(second.data.map((s) => [s.id, s.value])).toEqual([[String(ids[2]), "9"]]);
      expect(second.next_page_url).toBeNull();
    });

    it("is an empty page for a device without sensors", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      expect(await sensorsOf(h, user, device)).toMatchObject({ total: 0, data: [], from: 0, to: 0, status: 1 });
    });
  });

  describe("virtual odometer", () => {
    it("counts from the value set plus the GPS distance driven since, kept across edits that leave it out", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      await h.live.putStates([{ state: liveState(device, { odometerKm: 200 }), userIds: [user.id] }]);
      const body = sensorBody("odometer", { odometer_value_by: "virtual_odometer", tag_name: undefined, formula: undefined, odometer_value: "1000" });
      const id = await addSensor(h, user, device, body);
      expect(await sensorItem(h, user, id)).toMatchObject({ value: "1000 km", odometer_value: "1000", tag_name: "" });

      await h.live.putStates([{ state: liveState(device, { odometerKm: 250.5 }), userIds: [user.id] }]);
      expect(await sensorItem(h, user, id)).toMatchObject({ value: "1050.5 km", odometer_value: "1050.5" });

      // An edit without odometer_value keeps the reading; one with it sets it as of now.
      ok(await h.post("/edit_sensor", { user, query: { sensor_id: id }, body: { ...body, sensor_name: "Odo", odometer_value: undefined } }), OkSchema);
      expect((await sensorItem(h, user, id)).value).toBe("1050.5 km");
      ok(await h.post("/edit_sensor", { user, query: { sensor_id: id }, body: { ...body, odometer_value: 5000 } }), OkSchema);
      expect((await sensorItem(h, user, id)).value).toBe("5000 km");
      await h.live.putStates([{ state: liveState(device, { odometerKm: 260.5 }), userIds: [user.id] }]);
      // The form sent back as edit_sensor_data filled it in keeps the reading.
      const item = await sensorItem(h, user, id);
      expect(item.value).toBe("5010 km");
      ok(await h.post("/edit_sensor", { user, query: { sensor_id: id }, body: { ...body, odometer_value: item.odometer_value } }), OkSchema);
      expect((await sensorItem(h, user, id)).value).toBe("5010 km");
    });

    it("keeps the distance it stands for when an edit switches its unit and leaves the value out", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      await h.live.putStates([{ state: liveState(device, { odometerKm: 0 }), userIds: [user.id] }]);
      const body = sensorBody("odometer", { odometer_value_by: "virtual_odometer", odometer_value_unit: "mi", tag_name: undefined, formula: undefined, odometer_value: "1000" });
      const id = await addSensor(h, user, device, body);
      expect((await sensorItem(h, user, id)).value).toBe("1000 mi");
      ok(await h.post("/edit_sensor", { user, query: { sensor_id: id }, body: { ...body, odometer_value_unit: "km", odometer_value: undefined } }), OkSchema);
      expect((await sensorItem(h, user, id)).value).toBe("1609.34 km");
    });
  });

  describe("live list", () => {
    it("shows each sensor's reading and the engine status by the device's ignition sensor", async () => {
      const user = await h.newUser();
      const device = await deviceWith(h, user, { detectEngine: "ignition" });
      await addSensor(h, user, device, sensorBody("ignition", { sensor_name: "Ignition" }));
      await addSensor(h, user, device, sensorBody("battery", { sensor_name: "Battery", show_in_popup: 0 }));
      await addSensor(h, user, device, sensorBody("fuel_tank_calibration", { sensor_name: "Fuel" }));
      await addSensor(h, user, device, sensorBody("temperature", { sensor_name: "Temp" }));
      // Standing still with the ignition on: the sensor says on, motion would say off.
      await h.live.putStates([{ state: liveState(device, { speedKmh: 0, attributes: { ignition: true, power: "12650", adc1: 250, temp1: -55 } }), userIds: [user.id] }]);

      const expected = [
        { name: "Ignition", value: "On", show_in_popup: "1" },
        { name: "Battery", value: "12.65 V", show_in_popup: "0" },
        { name: "Fuel", value: "15 l", show_in_popup: "1" },
        { name: "Temp", value: "-5.5 °C", show_in_popup: "1" },
      ];
      const item = (await liveItems(h, user)).get(device)!;
      expect(item.sensors).toEqual(expected);
      expect(item.engine_status).toBe(true);

      const latest = ok(await h.get("/get_devices_latest", { user }), GetDevicesLatestResponseSchema).items.find((i) => i.id === device)!;
      expect(expectSchema(Type.Array(LiveSensorSchema), JSON.parse(latest.sensors), "sensors")).toEqual(expected);
      expect(latest.engine_status).toBe(true);

      await h.live.putStates([{ state: liveState(device, { speedKmh: 80, attributes: { ignition: false } }), userIds: [user.id] }]);
      const off = (await liveItems(h, user)).get(device)!;
      expect(off.engine_status).toBe(false);
      expect(off.sensors.map((s) => s.value)).toEqual(["Off", "-", "-", "-"]);
    });

    it("goes by motion for gps, or when the sensor has no value; null before the first report", async () => {
      const user = await h.newUser();
      const gps = await h.addDevice(user);
      const acc = await deviceWith(h, user, { detectEngine: "acc" });
      await addSensor(h, user, gps, sensorBody("acc"));
      await addSensor(h, user, acc, sensorBody("acc"));
      let items = await liveItems(h, user);
      expect(items.get(gps)).toMatchObject({ engine_status: null, sensors: [{ value: "-" }] });

      await h.live.putStates([
        { state: liveState(gps, { speedKmh: 3, attributes: { io1: 1 } }), userIds: [user.id] },
        { state: liveState(acc, { speedKmh: 30, attributes: {} }), userIds: [user.id] },
      ]);
      items = await liveItems(h, user);
      expect(items.get(gps)).toMatchObject({ engine_status: false, sensors: [{ value: "On" }] });
      expect(items.get(acc)).toMatchObject({ engine_status: true, sensors: [{ value: "-" }] });
    });

    it("marks the device changed for get_devices_latest when a sensor changes", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const quiet = await h.addDevice(user);
      // Changes in the second a response is stamped with come again, so step past the additions.
      await nextSecond();
      const since = ok(await h.get("/get_devices_latest", { user }), GetDevicesLatestResponseSchema).time;
      const id = await addSensor(h, user, device, sensorBody("satellites", { sensor_name: "Sats" }));
      const changed = ok(await h.get("/get_devices_latest", { user, query: { time: since } }), GetDevicesLatestResponseSchema);
      expect(changed.items.map((i) => i.id)).toEqual([device]);
      expect(JSON.parse(changed.items[0]!.sensors)).toEqual([{ name: "Sats", value: "-", show_in_popup: "1" }]);
      expect(changed.items.map((i) => i.id)).not.toContain(quiet);

      await nextSecond();
      const before = changed.time + 1;
      ok(await h.get("/destroy_sensor", { user, query: { sensor_id: id } }), OkSchema);
      expect(ok(await h.get("/get_devices_latest", { user, query: { time: before } }), GetDevicesLatestResponseSchema).items.map((i) => i.id)).toEqual([device]);
    });

    it("reads an engine hours sensor in hours", async () => {
      const user = await h.newUser();
      const device = await deviceWith(h, user, { engineHours: "engine_hours" });
      const id = await addSensor(h, user, device, sensorBody("engine_hours", { formula: "[value]/3600" }));
      await h.live.putStates([{ state: liveState(device, { attributes: { hours: 7200 }, engineSeconds: 60 }), userIds: [user.id] }]);
      expect((await sensorItem(h, user, id)).value).toBe("2 h");
    });
  });

  describe("isolation", () => {
    it("answers another user's sensor and device ids as not found, and leaves them unchanged", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDevice = await h.addDevice(a);
      const bDevice = await h.addDevice(b);
      const aSensor = await addSensor(h, a, aDevice, sensorBody("ignition"));
      const before = await sensorItem(h, a, aSensor);
      const missing = 2_000_000_000;

      for (const sensorId of [aSensor, missing]) {
        expect(failure(await h.get("/edit_sensor_data", { user: b, query: { sensor_id: sensorId } }), 404)).toBe("Sensor not found.");
        expect(failure(await h.post("/edit_sensor", { user: b, query: { sensor_id: sensorId }, body: sensorBody("battery", { device_id: bDevice }) }), 404)).toBe("Sensor not found.");
        expect(failure(await h.get("/destroy_sensor", { user: b, query: { sensor_id: sensorId } }), 404)).toBe("Sensor not found.");
      }
      for (const deviceId of [aDevice, missing]) {
        expect(failure(await h.get("/add_sensor_data", { user: b, query: { device_id: deviceId } }), 404)).toBe("Device not found.");
        expect(failure(await h.post("/add_sensor", { user: b, query: { device_id: deviceId }, body: sensorBody("battery") }), 404)).toBe("Device not found.");
        expect(failure(await h.post("/add_sensor", { user: b, body: { ...sensorBody("battery"), device_id: deviceId } }), 404)).toBe("Device not found.");
        expect(failure(await h.get("/get_sensors", { user: b, query: { device_id: deviceId } }), 404)).toBe("Device not found.");
      }
      expect(await sensorItem(h, a, aSensor)).toEqual(before);
      expect((await sensorsOf(h, a, aDevice)).total).toBe(1);
      expect((await sensorsOf(h, b, bDevice)).total).toBe(0);
      // B's live list shows nothing of A's sensors.
      expect((await liveItems(h, b)).get(bDevice)!.sensors).toEqual([]);
    });
  });
});
