import type { AlertTypeName } from "./alert-types.js";

/**
 * The event vocabulary, declared once: the `type` of every event the rules service records
 * (the vendor's stored event types), each with its title and the alert types that record it:
 * a geofence_inout alert records geofence_in or geofence_out, a fuel_change alert fuel_fill
 * or fuel_theft. get_events filters by these names.
 */
export interface EventTypeDeclaration {
  type: string;
  title: string;
  /** The alert types whose alerts record it; none for the vendor's types no alert here raises yet. */
  alerts?: readonly AlertTypeName[];
}

function declareEventTypes<const T extends readonly EventTypeDeclaration[]>(types: T): T {
  return types;
}

export const EVENT_TYPES = declareEventTypes([
  { type: "overspeed", title: "Overspeed", alerts: ["overspeed"] },
  { type: "geofence_in", title: "Geofence in", alerts: ["geofence_in", "geofence_inout"] },
  { type: "geofence_out", title: "Geofence out", alerts: ["geofence_out", "geofence_inout"] },
  // The vendor's older names for geofence crossings, still found in its stored events.
  { type: "zone_in", title: "Zone in" },
  { type: "zone_out", title: "Zone out" },
  { type: "custom", title: "Custom event", alerts: ["custom"] },
  { type: "stop_duration", title: "Stop duration", alerts: ["stop_duration"] },
  { type: "offline_duration", title: "Offline duration", alerts: ["offline_duration"] },
  { type: "idle_duration", title: "Idle duration", alerts: ["idle_duration"] },
  { type: "ignition_duration", title: "Ignition duration", alerts: ["ignition_duration"] },
  { type: "driver", title: "Driver change", alerts: ["driver"] },
  { type: "driver_unauthorized", title: "Unauthorized driver", alerts: ["driver_unauthorized"] },
  { type: "distance", title: "Distance", alerts: ["distance"] },
  { type: "sos", title: "SOS", alerts: ["sos"] },
  { type: "fuel_fill", title: "Fuel fill", alerts: ["fuel_change"] },
  { type: "fuel_theft", title: "Fuel theft", alerts: ["fuel_change"] },
  { type: "ignition_on", title: "Ignition on", alerts: ["ignition"] },
  { type: "ignition_off", title: "Ignition off", alerts: ["ignition"] },
  { type: "move_start", title: "Start of movement", alerts: ["move_start"] },
  { type: "move_duration", title: "Movement duration", alerts: ["move_duration"] },
  { type: "time_duration", title: "Time duration" },
  { type: "unplugged", title: "Unplugged", alerts: ["unplugged"] },
  { type: "poi_stop_duration", title: "Stop at a point of interest", alerts: ["poi_stop_duration"] },
  { type: "poi_idle_duration", title: "Idle at a point of interest", alerts: ["poi_idle_duration"] },
  // A maintenance service's reminder: made by the service's own terms, not by an alert.
  { type: "service", title: "Service" },
]);

export type EventTypeName = (typeof EVENT_TYPES)[number]["type"];
export const EVENT_TYPE_NAMES = EVENT_TYPES.map((t) => t.type) as EventTypeName[];

const names = new Set<string>(EVENT_TYPE_NAMES);
export const isEventType = (name: string): name is EventTypeName => names.has(name);

/** The event types an alert of type `alert` records. */
export function eventTypesOfAlert(alert: AlertTypeName): EventTypeName[] {
  return EVENT_TYPES.filter((t: EventTypeDeclaration) => t.alerts?.includes(alert)).map((t) => t.type);
}
