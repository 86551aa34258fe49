import { FT_PER_M, KM_PER_MILE, knownAttribute, userClock, type DeviceData, type KnownAttribute, type LiveDeviceItem, type LiveState, type UserClock } from "@fleet/contracts";
import type { User, UserDeviceRecord } from "@fleet/db";
import { clockOf } from "./clock.js";
import type { LiveExtras } from "./live-extras.js";


const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v));
const fixed = (n: number, digits: number) => n.toFixed(digits);

/** `0000-00-00`-style dates where the vendor's clients expect a string even when unset. */
function dateOrZero(d: Date | null, clock: UserClock): string {
  return d ? clock.format(d.getTime()) : "0000-00-00 00:00:00";
}

export function deviceData(d: UserDeviceRecord, user: User): DeviceData {
  const clock = clockOf(user);
  return {
    id: str(d.id),
    // The vendor's get_devices types it null (its legacy owner column); who sees the device is pivot.user_id.
    user_id: null,
    traccar_device_id: str(d.id),
    icon_id: str(d.iconId),
    active: d.active && d.pivot.active ? "1" : "0",
    deleted: d.deleted ? "1" : "0",
    name: d.name,
    imei: d.imei,
    fuel_measurement_id: str(d.fuelMeasurementId),
    fuel_quantity: fixed(d.fuelQuantity, 2),
    fuel_price: fixed(d.fuelPrice, 2),
    fuel_per_km: fixed(d.fuelPerKm, 2),
    sim_number: d.simNumber,
    device_model: d.deviceModel,
    plate_number: d.plateNumber,
    vin: d.vin,
    registration_number: d.registrationNumber,
    object_owner: d.objectOwner,
    expiration_date: d.expirationDate ? clock.format(d.expirationDate.getTime()).slice(0, 10) : "0000-00-00",
    tail_color: d.tailColor,
    tail_length: str(d.tailLength),
    engine_hours: d.engineHours,
    detect_engine: d.detectEngine,
    min_moving_speed: str(d.minMovingSpeed),
    min_fuel_fillings: str(d.minFuelFillings),
    min_fuel_thefts: str(d.minFuelThefts),
    snap_to_road: d.snapToRoad ? "1" : "0",
    created_at: dateOrZero(d.createdAt, clock),
    updated_at: dateOrZero(d.updatedAt, clock),
    pivot: {
      user_id: str(d.pivot.userId),
      device_id: str(d.pivot.deviceId),
      group_id: d.pivot.groupId === null ? null : str(d.pivot.groupId),
      // The vendor's Swagger types it a string: no driver is "0", as an event's missing links are 0.
      current_driver_id: str(d.pivot.currentDriverId ?? 0),
      active: d.pivot.active ? "1" : "0",
      timezone_id: d.pivot.timezoneId === null ? null : str(d.pivot.timezoneId),
    },
    group_id: d.pivot.groupId === null ? null : str(d.pivot.groupId),
    current_driver_id: str(d.pivot.currentDriverId ?? 0),
  };
}

/** "1h 5min", "3min 2s": how long since the device last moved. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h}h ${m}min`;
  if (m > 0) return `${m}min ${s % 60}s`;
  return `${s}s`;
}

/**
 * What every item of one answer shares: the user's units and the same `users` entry,
 * worked out once per answer rather than once per device.
 */
export interface LiveListContext {
  user: User;
  now: number;
  offlineAfterMs: number;
  miles: boolean;
  feet: boolean;
  users: { id: number; email: string }[];
  distanceUnitHour: string;
  /** A fix's time as the item shows it: on the clock of its device's timezone (0: the user's), with the account's daylight-saving rule, as history shows it. */
  timeOf(fixTime: number, deviceTimezoneId: number | null): string;
}

export function liveListContext(user: User, now: number, offlineAfterMs: number): LiveListContext {
  const miles = user.unitOfDistance === "mi";
  // A clock per timezone the answer shows, made once: a fleet shares one or a few.
  const clocks = new Map<number, UserClock>();
  const timeOf = (fixTime: number, deviceTimezoneId: number | null) => {
    const timezoneId = deviceTimezoneId || user.timezoneId;
    let clock = clocks.get(timezoneId);
    if (!clock) clocks.set(timezoneId, (clock = userClock({ timezoneId, dst: user.dst })));
    return clock.format(fixTime);
  };
  return { user, now, offlineAfterMs, miles, feet: user.unitOfAltitude === "ft", users: [{ id: user.id, email: user.email }], distanceUnitHour: miles ? "mph" : "kph", timeOf };
}

/** A record with its `device_data` as last rendered, kept with the cached record (it changes only with the record or the user's clock). */
export interface ShownRecord {
  device: UserDeviceRecord;
  shown?: { clock: UserClock; data: DeviceData };
}

function shownData(record: ShownRecord, user: User): DeviceData {
  const shown = record.shown;
  const clock = clockOf(user);
  if (shown?.clock === clock) return shown.data;
  const data = deviceData(record.device, user);
  record.shown = { clock, data };
  return data;
}

/**
 * One device of the live list: its record, its latest state from the live store, in the
 * user's units and timezone. A device that never reported shows as offline at 0,0.
 * Answers share the record's device_data and icon colours: they are serialised, never changed.
 */
export function liveItem(record: ShownRecord, state: LiveState | undefined, ctx: LiveListContext, extras?: LiveExtras): LiveDeviceItem {
  const { user, now, miles, feet } = ctx;
  const d = record.device;
  const colors = d.iconColors;
  const online = state !== undefined && now - state.serverTime <= ctx.offlineAfterMs;
  const moving = online && state.speedKmh >= d.minMovingSpeed;
  const speed = state ? Math.round(miles ? state.speedKmh / KM_PER_MILE : state.speedKmh) : 0;
  const tail = state ? state.tail.slice(Math.max(0, state.tail.length - d.tailLength)) : [];
  const attr = (k: KnownAttribute) => {
    const v = state && knownAttribute(state.attributes, k);
    return v === undefined ? "-" : String(v);
  };
  const alarm = attr("alarm");
  return {
    id: d.id,
    name: d.name,
    online: online ? "online" : "offline",
    alarm: alarm === "-" ? "" : alarm,
    time: state ? ctx.timeOf(state.fixTime, d.pivot.timezoneId) : "-",
    timestamp: state ? Math.floor(state.fixTime / 1000) : 0,
    acktimestamp: state ? Math.floor(state.serverTime / 1000) : 0,
    speed,
    lat: state?.latitude ?? 0,
    lng: state?.longitude ?? 0,
    course: state ? String(Math.round(state.course)) : "0",
    power: attr("power"),
    altitude: state ? Math.round(feet ? state.altitude * FT_PER_M : state.altitude) : 0,
    address: "-",
    protocol: state?.protocol ?? "",
    driver: extras?.driver ?? "-",
    sensors: extras?.sensors ?? [],
    services: extras?.services ?? [],
    tail: tail.map((t) => ({ lat: String(t.latitude), lng: String(t.longitude) })),
    distance_unit_hour: ctx.distanceUnitHour,
    device_data: shownData(record, user),
    users: ctx.users,
    unit_of_distance: user.unitOfDistance,
    unit_of_altitude: user.unitOfAltitude,
    unit_of_capacity: user.unitOfCapacity,
    stop_duration: state && !moving ? formatDuration(now - state.movedAt) : "0s",
    moved_timestamp: state ? Math.floor(state.movedAt / 1000) : 0,
    engine_status: extras?.engineStatus ?? null,
    icon_type: d.deviceIconsType,
    icon_color: !online ? colors.offline : moving ? colors.moving : colors.stopped,
    icon_colors: colors,
  };
}
