import { describe, expect, it } from "vitest";
import { NO_NOTIFICATIONS, type Alert, type User, type UserRuleRecords } from "@fleet/db";
import { buildUserRules, rulesOfDevice } from "../model.js";
import { T0, alert, deviceRules, track, runTrack, typesOf } from "../testing.js";

describe("custom events", () => {
  const lowBattery = { id: 5, protocol: "osmand", conditions: [{ tag: "batt", type: 3 as const, tag_value: "20" }, { tag: "charging", type: 1 as const, tag_value: "false" }], message: "Battery low", always: false };

  it("fires when all its conditions start to hold on a position of its protocol, once until they stop holding", () => {
    const rules = deviceRules([alert({ type: "custom", customEvents: [5] })], { customEvents: [lowBattery] });
    const batt = [50, 15, 10, 10, 30, 12];
    const charging = [false, false, false, true, false, false];
    const r = runTrack(rules, track(batt.length, 10_000, (i) => ({ attributes: { batt: batt[i]!, charging: charging[i]! } })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([
      ["custom", "Battery low", T0 + 10_000],
      ["custom", "Battery low", T0 + 50_000],
    ]);
  });

  it("fires on every matching position when `always` is set, and never for another protocol or a missing attribute", () => {
    const always = deviceRules([alert({ type: "custom", customEvents: [5] })], { customEvents: [{ ...lowBattery, always: true }] });
    expect(typesOf(runTrack(always, track(3, 10_000, () => ({ attributes: { batt: 5, charging: false } }))))).toEqual(["custom", "custom", "custom"]);
    expect(typesOf(runTrack(always, track(3, 10_000, () => ({ protocol: "gt06", attributes: { batt: 5, charging: false } }))))).toEqual([]);
    expect(typesOf(runTrack(always, track(3, 10_000, () => ({ attributes: { batt: 5 } }))))).toEqual([]);
  });

  it("keeps what matched once per device: custom alerts keep no memory, and an event one of them names since is learnt, not fired", () => {
    const doorOpen = { id: 6, protocol: "osmand", conditions: [{ tag: "door", type: 1 as const, tag_value: "1" }], message: "Door open", always: false };
    const events = { customEvents: [lowBattery, doorOpen] };
    const one = deviceRules([alert({ id: 1, type: "custom", customEvents: [5] })], events);
    const positions = track(4, 10_000, (i) => ({ attributes: { batt: 50, charging: false, door: [1, 1, 0, 1][i]! } }));
    const before = runTrack(one, positions.slice(0, 1));
    expect(before.state).toMatchObject({ custom: { of: [5], on: [] } });
    expect(Object.keys(before.state!)).not.toContain("a1");
    // A second alert names the door, open for a while already: not reported as opening...
    const two = deviceRules([alert({ id: 1, type: "custom", customEvents: [5] }), alert({ id: 2, type: "custom", customEvents: [6] })], events);
    const after = runTrack(two, positions.slice(1), before.state);
    // ...but when it opens again.
    expect(after.events.map((e) => [e.alertId, e.message, e.time.getTime()])).toEqual([[2, "Door open", positions[3]!.fixTime]]);
    expect(after.state).toMatchObject({ custom: { of: [5, 6], on: [6] } });
  });

  it("matches a protocol whatever case its custom event was saved in", () => {
    const user = { id: 7, timezoneId: 0, dst: null, unitOfDistance: "km", unitOfAltitude: "mt", lang: "en" } as unknown as User;
    const custom = { id: 1, userId: 7, name: "battery", type: "custom", active: true, attributes: {}, zone: 0, zones: [], geofences: [], drivers: [], eventsCustom: [5], pois: [], schedule: false, schedules: {}, notifications: NO_NOTIFICATIONS } as unknown as Alert;
    const records = { users: [user], alerts: [custom], geofences: [], customEvents: [{ ...lowBattery, userId: 7, protocol: "OsmAnd" }], drivers: [], pois: [], geofenceNames: [] } as unknown as UserRuleRecords;
    const rules = rulesOfDevice({ id: 1, name: "Truck" }, [{ alertId: 1, userId: 7, deviceId: 1, activeFrom: null, activeTo: null }], [], buildUserRules(records))!;
    expect(typesOf(runTrack(rules, track(2, 10_000, (i) => ({ attributes: { batt: [50, 10][i]!, charging: false } }))))).toEqual(["custom"]);
  });
});

