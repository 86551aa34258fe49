/*
 * The vendor's alert endpoints beyond the alert records themselves: get_alerts_attributes,
 * get_alerts_commands, get_alerts_summary, a device's alerts and an alert's time period on a
 * device. Each answer is checked against its contract schema and for what it says.
 */
import { describe, expect, it } from "vitest";
import {
  ALERT_COMMAND_TYPES,
  ALERT_TYPES,
  AddAlertResponseSchema,
  AlertOkResponseSchema,
  AlertsAttributesResponseSchema,
  AlertsCommandsResponseSchema,
  AlertsSummaryResponseSchema,
  DeviceAlertsResponseSchema,
  GeoCreatedSchema,
  UTC_TIMEZONE_ID,
} from "@fleet/contracts";
import { loadDeviceRuleRecords, recordEvents, schema } from "@fleet/db";
import { describeApi, failure, invalid, liveState, ok, type ApiHarness, type TestUser } from "./fixture.js";

const UTC_PLUS_2 = UTC_TIMEZONE_ID + 8;

const overspeed = (devices: number[], extra: Record<string, unknown> = {}) => ({ name: "Too fast", type: "overspeed", devices, overspeed: 90, ...extra });

async function addAlert(h: ApiHarness, user: TestUser, body: Record<string, unknown>): Promise<number> {
  return ok(await h.post("/add_alert", { user, body }), AddAlertResponseSchema).id;
}

const deviceAlerts = async (h: ApiHarness, user: TestUser, device: number, query: Record<string, string | number> = {}) => ok(await h.get(`/devices/${device}/alerts`, { user, query }), DeviceAlertsResponseSchema);

const setPeriod = (h: ApiHarness, user: TestUser, device: number, alert: number, body: unknown) => h.post(`/devices/${device}/alerts/${alert}/time_period`, { user, body });

/** The alert_devices row of (alert, device), as stored. */
async function periodRow(h: ApiHarness, alert: number, device: number) {
  return (await h.db.select().from(schema.alertDevices)).find((r) => r.alertId === alert && r.deviceId === device);
}

describeApi("alert lookups and device alerts", (h) => {
  describe("get_alerts_attributes", () => {
    it("lists every alert type with its input fields; options by string id, multiselects with the user's own records", async () => {
      const user = await h.newUser();
      const stranger = await h.newUser();
      const depot = ok(await h.post("/add_geofence", { user, body: { name: "Depot", polygon_color: "#ff0000", type: "circle", center: { lat: 54.68, lng: 25.28 }, radius: 500 } }), GeoCreatedSchema).id;
      await h.post("/add_geofence", { user: stranger, body: { name: "Not yours", polygon_color: "#ff0000", type: "circle", center: { lat: 54.68, lng: 25.28 }, radius: 500 } });
      const body = ok(await h.get("/get_alerts_attributes", { user }), AlertsAttributesResponseSchema);
      expect(body.types.map((t) => [t.type, t.title, t.attributes.map((a) => a.name)])).toEqual(ALERT_TYPES.map((t) => [t.type, t.title, t.attributes.map((a) => a.name)]));
      const attrs = (type: string) => body.types.find((t) => t.type === type)!.attributes;
      expect(attrs("overspeed")).toEqual([{ name: "overspeed", type: "integer", title: "Speed limit (km/h)" }]);
      expect(attrs("distance")[1]).toEqual({ name: "distance_unit", type: "select", title: "Distance unit", options: [{ id: "1", title: "km" }, { id: "2", title: "mi" }] });
      expect(attrs("geofence_in")).toEqual([{ name: "geofences", type: "multiselect", title: "Geofences", options: [{ id: String(depot), title: "Depot" }] }]);
      expect(attrs("sos")).toEqual([]);
    });
  });

  describe("get_alerts_commands", () => {
    it("lists the alert commands every given device takes, by the protocol of its latest position", async () => {
      const user = await h.newUser();
      const [plain, watch, meitrack] = [await h.addDevice(user), await h.addDevice(user), await h.addDevice(user)];
      await h.live.putStates([
        { state: liveState(watch, { protocol: "watch" }), userIds: [user.id] },
        { state: liveState(meitrack, { protocol: "meitrack" }), userIds: [user.id] },
      ]);
      const types = async (query: Record<string, string | number>) => ok(await h.get("/get_alerts_commands", { user, query }), AlertsCommandsResponseSchema).items.map((c) => c.type);

      // Nothing to narrow it: every command an alert may send, with its label.
      const all = ok(await h.get("/get_alerts_commands", { user }), AlertsCommandsResponseSchema);
      expect(all.items.map((c) => c.type)).toEqual([...ALERT_COMMAND_TYPES]);
      expect(all.items.find((c) => c.type === "engineStop")!.title).toBe("Engine stop");
      // A device without a position takes the default group, which has no requestPhoto; Meitrack has it.
      expect(await types({ devices: plain })).toEqual(ALERT_COMMAND_TYPES.filter((t) => t !== "requestPhoto"));
      expect(await types({ devices: meitrack })).toEqual([...ALERT_COMMAND_TYPES]);
      // Several devices: only what all of them take.
      expect(await types({ devices: watch })).toEqual(["positionSingle", "rebootDevice"]);
      expect(ok(await h.post("/get_alerts_commands", { user, body: { devices: [meitrack], selected_devices: [watch] } }), AlertsCommandsResponseSchema).items.map((c) => c.type)).toEqual(["positionSingle", "rebootDevice"]);
    });

    it("takes the alert's devices when no device is named, and the named devices over the alert's", async () => {
      const user = await h.newUser();
      const [plain, meitrack] = [await h.addDevice(user), await h.addDevice(user)];
      await h.live.putStates([{ state: liveState(meitrack, { protocol: "meitrack" }), userIds: [user.id] }]);
      const alert = await addAlert(h, user, overspeed([meitrack]));
      const types = async (body: Record<string, unknown>) => ok(await h.post("/get_alerts_commands", { user, body }), AlertsCommandsResponseSchema).items.map((c) => c.type);
      expect(await types({ alert_id: alert })).toContain("requestPhoto");
      expect(await types({ alert_id: alert, devices: [plain] })).not.toContain("requestPhoto");
    });

    it("refuses another user's alert as a missing one (404) and another user's devices as invalid (422)", async () => {
      const user = await h.newUser();
      const stranger = await h.newUser();
      const theirs = await h.addDevice(stranger);
      const theirAlert = await addAlert(h, stranger, overspeed([theirs]));
      expect(failure(await h.get("/get_alerts_commands", { user, query: { alert_id: theirAlert } }), 404)).toBe("Alert not found.");
      expect(invalid(await h.post("/get_alerts_commands", { user, body: { devices: [theirs] } }))).toEqual({ devices: "The selected devices are invalid." });
      expect(invalid(await h.post("/get_alerts_commands", { user, body: { selected_devices: [theirs] } }))).toEqual({ selected_devices: "The selected devices are invalid." });
      expect(invalid(await h.get("/get_alerts_commands", { user, query: { alert_id: "abc" } }))).toHaveProperty("alert_id");
    });
  });

  describe("get_alerts_summary", () => {
    it("counts the user's alerts, the active ones, and the events each recorded, in the period when one is given", async () => {
      const user = await h.newUser({ timezoneId: UTC_PLUS_2 });
      const stranger = await h.newUser();
      const [d1, d2] = [await h.addDevice(user), await h.addDevice(user)];
      const fast = await addAlert(h, user, overspeed([d1, d2]));
      const quiet = await addAlert(h, user, overspeed([d1], { name: "Quiet", active: 0 }));
      const other = await h.addDevice(stranger);
      const theirs = await addAlert(h, stranger, overspeed([other]));
      const event = (u: TestUser, device: number, alertId: number, time: string, key: string) => ({ userId: u.id, deviceId: device, type: "overspeed" as const, message: "Overspeed", time: new Date(time), latitude: 54.7, longitude: 25.3, alertId, dedupeKey: key });
      await recordEvents(h.db, [
        event(user, d1, fast, "2030-03-01T10:00:00Z", "a"),
        // 23:30 UTC on 1 March is 01:30 on 2 March on the user's clock.
        event(user, d2, fast, "2030-03-01T23:30:00Z", "b"),
        event(stranger, other, theirs, "2030-03-01T10:00:00Z", "c"),
      ]);

      const all = ok(await h.get("/get_alerts_summary", { user }), AlertsSummaryResponseSchema);
      expect(all.items).toEqual({
        total: 2,
        active: 1,
        events: 2,
        alerts: [
          { id: fast, name: "Too fast", type: "overspeed", active: 1, devices: 2, events: 2 },
          { id: quiet, name: "Quiet", type: "overspeed", active: 0, devices: 1, events: 0 },
        ],
      });
      const day = ok(await h.get("/get_alerts_summary", { user, query: { date_from: "2030-03-02", date_to: "2030-03-02" } }), AlertsSummaryResponseSchema);
      expect([day.items.events, day.items.alerts[0]!.events]).toEqual([1, 1]);
      expect(invalid(await h.get("/get_alerts_summary", { user, query: { date_from: "2030-02-30" } }))).toEqual({ date_from: "The date from is not a valid date." });
      expect(invalid(await h.get("/get_alerts_summary", { user, query: { date_from: "2030-03-02", date_to: "2030-03-01" } }))).toEqual({ date_to: "The date to must be a date after or equal to date from." });
    });
  });

  describe("a device's alerts and their time period", () => {
    it("lists the user's alerts watching the device, paged, with no period until one is set", async () => {
      const user = await h.newUser();
      const [d1, d2] = [await h.addDevice(user), await h.addDevice(user)];
      const a = await addAlert(h, user, overspeed([d1]));
      const b = await addAlert(h, user, overspeed([d1, d2], { name: "Off", active: 0 }));
      await addAlert(h, user, overspeed([d2], { name: "Elsewhere" }));

      const body = await deviceAlerts(h, user, d1);
      expect(body.data).toEqual([
        { id: a, title: "Too fast", name: "Too fast", active: true, date_from: null, date_to: null },
        { id: b, title: "Off", name: "Off", active: false, date_from: null, date_to: null },
      ]);
      expect(body.pagination).toEqual({ total: 2, per_page: 15, current_page: 1, last_page: 1, next_page_url: null, prev_page_url: null, url: `/api/devices/${d1}/alerts` });
      const first = await deviceAlerts(h, user, d1, { limit: 1 });
      expect(first.data.map((x) => x.id)).toEqual([a]);
      expect([first.pagination.last_page, first.pagination.next_page_url]).toEqual([2, expect.stringContaining("page=2")]);
    });

    it("answers 404 for a device that is not the user's or is deleted, as for a missing one", async () => {
      const user = await h.newUser();
      const stranger = await h.newUser();
      const theirs = await h.addDevice(stranger);
      const gone = await h.addDevice(user);
      ok(await h.get("/destroy_device", { user, query: { device_id: gone } }), AlertOkResponseSchema);
      for (const device of [theirs, gone, 2_000_000_000]) expect(failure(await h.get(`/devices/${device}/alerts`, { user }), 404)).toBe("Device not found.");
      expect(invalid(await h.get("/devices/abc/alerts", { user }))).toHaveProperty("device_id");
    });

    it("stores the period in the user's timezone, shows it back, replaces it whole, and the rules service reads it", async () => {
      const user = await h.newUser({ timezoneId: UTC_PLUS_2 });
      const device = await h.addDevice(user);
      const alert = await addAlert(h, user, overspeed([device]));

      ok(await setPeriod(h, user, device, alert, { date_from: "2030-01-01 08:00:00", date_to: "2030-06-30" }), AlertOkResponseSchema);
      // date_to, a date alone, takes in the whole day: the stored end is the next day's start, exclusive.
      expect(await periodRow(h, alert, device)).toMatchObject({ activeFrom: new Date("2030-01-01T06:00:00Z"), activeTo: new Date("2030-06-30T22:00:00Z") });
      expect((await deviceAlerts(h, user, device)).data[0]).toMatchObject({ date_from: "2030-01-01 08:00:00", date_to: "2030-06-30 23:59:59" });
      const [watching] = (await loadDeviceRuleRecords(h.db, [device])).watches;
      expect(watching).toMatchObject({ alertId: alert, deviceId: device, activeFrom: new Date("2030-01-01T06:00:00Z"), activeTo: new Date("2030-06-30T22:00:00Z") });

      // The body replaces the period, as the vendor's does: a bound left out is none.
      ok(await setPeriod(h, user, device, alert, { date_to: "2030-02-01T12:00:00Z" }), AlertOkResponseSchema);
      expect((await deviceAlerts(h, user, device)).data[0]).toMatchObject({ date_from: null, date_to: "2030-02-01 14:00:00" });
      ok(await setPeriod(h, user, device, alert, { date_from: null, date_to: "" }), AlertOkResponseSchema);
      expect((await deviceAlerts(h, user, device)).data[0]).toMatchObject({ date_from: null, date_to: null });
      expect((await loadDeviceRuleRecords(h.db, [device])).watches[0]).toMatchObject({ activeFrom: null, activeTo: null });
    });

    it("keeps a device's period through edits of the alert that keep the device", async () => {
      const user = await h.newUser();
      const [d1, d2] = [await h.addDevice(user), await h.addDevice(user)];
      const alert = await addAlert(h, user, overspeed([d1]));
      ok(await setPeriod(h, user, d1, alert, { date_from: "2030-01-01 00:00:00" }), AlertOkResponseSchema);
      ok(await h.post("/edit_alert", { user, body: { id: alert, ...overspeed([d1, d2], { overspeed: 100 }) } }), AlertOkResponseSchema);
      ok(await h.post("/set_alert_devices", { user, query: { alert_id: alert }, body: { devices: [d2, d1] } }), AlertOkResponseSchema);
      expect((await periodRow(h, alert, d1))?.activeFrom).toEqual(new Date("2030-01-01T00:00:00Z"));
      expect((await periodRow(h, alert, d2))?.activeFrom).toBeNull();
    });

    it("refuses a bad period with a 422 naming the field, and writes nothing", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const alert = await addAlert(h, user, overspeed([device]));
      ok(await setPeriod(h, user, device, alert, { date_from: "2030-01-01", date_to: "2030-01-31" }), AlertOkResponseSchema);
      const before = await periodRow(h, alert, device);
      expect(invalid(await setPeriod(h, user, device, alert, { date_from: "2030-02-01", date_to: "2030-01-31 23:00:00" }))).toEqual({ date_to: "The date to must be a date after or equal to date from." });
      expect(invalid(await setPeriod(h, user, device, alert, { date_from: "2030-02-30" }))).toEqual({ date_from: "The date from is not a valid date." });
      expect(Object.keys(invalid(await setPeriod(h, user, device, alert, { date_to: "next tuesday" })))).toEqual(["date_to"]);
      expect(Object.keys(invalid(await setPeriod(h, user, device, alert, { date_from: 20300101 })))).toEqual(["date_from"]);
      expect(await periodRow(h, alert, device)).toEqual(before);
    });

    it("answers 404 for a device or an alert that is not the user's, missing, or an alert that does not watch the device", async () => {
      const user = await h.newUser();
      const stranger = await h.newUser();
      const [mine, other] = [await h.addDevice(user), await h.addDevice(user)];
      const alert = await addAlert(h, user, overspeed([mine]));
      const theirDevice = await h.addDevice(stranger);
      const theirAlert = await addAlert(h, stranger, overspeed([theirDevice]));
      const period = { date_from: "2030-01-01" };
      for (const device of [theirDevice, 2_000_000_000]) expect(failure(await setPeriod(h, user, device, alert, period), 404)).toBe("Device not found.");
      for (const id of [theirAlert, 2_000_000_000]) expect(failure(await setPeriod(h, user, mine, id, period), 404)).toBe("Alert not found.");
      expect(failure(await setPeriod(h, user, other, alert, period), 404)).toBe("Alert not found.");
      expect((await periodRow(h, theirAlert, theirDevice))?.activeFrom).toBeNull();
      expect(await periodRow(h, alert, other)).toBeUndefined();
    });
  });
});
