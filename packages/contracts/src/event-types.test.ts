import { describe, expect, it } from "vitest";
import { ALERT_TYPE_NAMES } from "./alert-types.js";
import { EVENT_TYPE_NAMES, eventTypesOfAlert, isEventType } from "./event-types.js";

describe("event types", () => {
  it("names each type once", () => {
    expect(new Set(EVENT_TYPE_NAMES).size).toBe(EVENT_TYPE_NAMES.length);
  });

  it("gives every alert type the events it records", () => {
    for (const alert of ALERT_TYPE_NAMES) expect(eventTypesOfAlert(alert), alert).not.toEqual([]);
    expect(eventTypesOfAlert("geofence_inout")).toEqual(["geofence_in", "geofence_out"]);
    expect(eventTypesOfAlert("fuel_change")).toEqual(["fuel_fill", "fuel_theft"]);
    expect(eventTypesOfAlert("overspeed")).toEqual(["overspeed"]);
  });

  it("knows the vendor's stored types beyond the alerts'", () => {
    for (const t of ["zone_in", "zone_out", "ignition_on", "ignition_off", "fuel_fill", "fuel_theft"]) expect(isEventType(t), t).toBe(true);
    expect(isEventType("teleport")).toBe(false);
  });
});
