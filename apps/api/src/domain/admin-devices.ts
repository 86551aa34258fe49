import { InvalidInputError, NotFoundError, isTruthy, type AdminDeviceExpirationBody, type AdminDevicesQuery, type AdminDeviceUserBody, type DeviceLookup, type LiveState, type UserClock } from "@fleet/contracts";
import {
  assignDeviceUser,
  findAnyDevice,
  findDeviceByImei,
  findUserByEmail,
  findUserById,
  pageAllDevices,
  pageClientDevices,
  pageDeviceUsers,
  revokeDeviceUser,
  setDeviceActive,
  setDeviceExpiration,
  type Db,
  type Device,
  type Refusal,
  type User,
} from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { formatDuration } from "../lib/live-item.js";
import { pageRequest, pageWindow, paginateCompact, type PageRequest } from "../lib/pagination.js";
import { parseExpiration } from "./admin.js";
import { found } from "./found.js";
import { worded } from "./refusals.js";

/*
 * Every device of the platform, as administrators manage it: find it, see and change who has
 * it, turn it on or off, set when it expires. Dates are shown in the administrator's timezone.
 */

const DEVICE = "Device";
const CLIENT = "Client";

export interface AdminDeviceDeps {
  db: Db;
  states(deviceIds: readonly number[]): Promise<Map<number, LiveState>>;
  now?: () => number;
}

function lookup(d: Device, state: LiveState | undefined, clock: UserClock): DeviceLookup {
  return {
    id: d.id,
    active: d.active,
    name: d.name,
    imei: d.imei,
    sim_number: d.simNumber,
    device_model: d.deviceModel,
    plate_number: d.plateNumber,
    vin: d.vin,
    registration_number: d.registrationNumber,
    object_owner: d.objectOwner,
    additional_notes: d.additionalNotes,
    protocol: state?.protocol ?? null,
    expiration_date: d.expirationDate ? clock.format(d.expirationDate.getTime()) : null,
  };
}

/** The `{status, data, pagination}` page of a list; `url` is the request's, for the page links. */
const page = <T>(url: string, p: PageRequest, total: number, data: T[]) => ({ status: 1 as const, ...paginateCompact({ url }, p, total, data) });

export async function list(deps: AdminDeviceDeps, admin: User, query: AdminDevicesQuery, url: string) {
  const p = pageRequest(query);
  const { total, rows } = await pageAllDevices(deps.db, pageWindow(p), query.s === undefined ? undefined : { text: query.s.trim(), column: query.property });
  const states = await deps.states(rows.map((d) => d.id));
  return page(url, p, total, rows.map((d) => lookup(d, states.get(d.id), clockOf(admin))));
}

export async function get(deps: AdminDeviceDeps, admin: User, deviceId: number) {
  const d = await found(findAnyDevice(deps.db, deviceId), DEVICE);
  const state = (await deps.states([d.id])).get(d.id);
  const now = deps.now?.() ?? Date.now();
  const standing = state !== undefined && state.speedKmh < d.minMovingSpeed;
  return {
    status: 1 as const,
    data: {
      ...lookup(d, state, clockOf(admin)),
      icon_colors: d.iconColors,
      icon_id: d.iconId,
      timezone_id: d.timezoneId === 0 ? null : d.timezoneId,
      fuel_measurement_id: d.fuelMeasurementId,
      fuel_quantity: d.fuelQuantity,
      fuel_price: d.fuelPrice,
      tail_length: d.tailLength,
      tail_color: d.tailColor,
      min_moving_speed: d.minMovingSpeed,
      min_fuel_fillings: d.minFuelFillings,
      min_fuel_thefts: d.minFuelThefts,
      gprs_templates_only: 0,
      detect_engine: d.detectEngine,
      engine_hours: d.engineHours,
      engine_status: state?.engineOn === undefined ? null : state.engineOn ? "on" : "off",
      stop_duration: standing ? formatDuration(now - state.movedAt) : null,
      stop_duration_sec: standing ? Math.max(0, Math.floor((now - state.movedAt) / 1000)) : 0,
      total_distance: state ? Math.round(state.odometerKm * 100) / 100 : 0,
      moved_timestamp: state ? Math.floor(state.movedAt / 1000) : 0,
      inaccuracy: null,
    },
  };
}

/** The user a request names by `user_id`, or by `email` without one; 404 when none matches. */
export async function userNamed(db: Db, by: { id?: number; email?: string }): Promise<User> {
  if (by.id === undefined && by.email === undefined) throw new InvalidInputError({ user_id: "The user id field is required when email is not present." });
  return found(by.id !== undefined ? findUserById(db, by.id) : findUserByEmail(db, by.email!), CLIENT);
}

const limitWording = { devicesLimit: { field: "user_id", message: (r: Refusal) => `The user already has as many devices as the account allows${r.kind === "limit" ? ` (${r.limit})` : ""}.` } };

/**
 * The device a path names by id or by IMEI ("ID or IMEI", as the vendor documents the user
 * and status paths): a number is an id first, then an IMEI, so an IMEI of digits works too.
 */
export async function deviceByKey(db: Db, key: string): Promise<number> {
  const id = /^[0-9]{1,10}$/.test(key) ? Number(key) : undefined;
  const byId = id !== undefined ? await findAnyDevice(db, id) : undefined;
  if (byId) return byId.id;
  return (await found(findDeviceByImei(db, key), DEVICE)).id;
}

export async function assignUser(db: Db, key: string, body: AdminDeviceUserBody) {
  const deviceId = await deviceByKey(db, key);
  const user = await userNamed(db, { id: body.user_id, email: body.email });
  const done = await worded(assignDeviceUser(db, deviceId, user.id), limitWording);
  // Gone in between: the device deleted, or the user.
  if (done !== true) throw new NotFoundError(done === "device" ? DEVICE : CLIENT);
}

export async function revokeUser(db: Db, key: string, body: AdminDeviceUserBody) {
  const deviceId = await deviceByKey(db, key);
  const user = await userNamed(db, { id: body.user_id, email: body.email });
  // A user who does not have the device is as missing as a missing user.
  if (!(await revokeDeviceUser(db, deviceId, user.id))) throw new NotFoundError(CLIENT);
}

export async function setActive(db: Db, key: string, active: boolean | 0 | 1 | "0" | "1") {
  return found(setDeviceActive(db, await deviceByKey(db, key), isTruthy(active)!), DEVICE);
}

export async function setExpiration(db: Db, admin: User, deviceId: number, body: AdminDeviceExpirationBody) {
  const v = body.expiration_date;
  let at: Date | null;
  if (v === null || v === 0) at = null;
  else if (typeof v === "number") at = new Date(v * 1000);
  else {
    const parsed = parseExpiration(v, clockOf(admin));
    if (!parsed) throw new InvalidInputError({ expiration_date: "The expiration date is not a valid date." });
    at = parsed;
  }
  await found(setDeviceExpiration(db, deviceId, at), DEVICE);
}

export async function users(db: Db, deviceId: number, query: { page?: number; per_page?: number; limit?: number }, url: string) {
  const p = pageRequest(query);
  const { total, rows } = await found(pageDeviceUsers(db, deviceId, pageWindow(p)), DEVICE);
  return page(url, p, total, rows.map((u) => ({ id: u.id, email: u.email, active: u.active ? (1 as const) : (0 as const) })));
}

export async function clientDevices(db: Db, userId: number, query: { page?: number; per_page?: number; limit?: number }, url: string) {
  await found(findUserById(db, userId), CLIENT);
  const p = pageRequest(query);
  const { total, rows } = await pageClientDevices(db, userId, pageWindow(p));
  return page(url, p, total, rows.map((d) => ({ id: d.id, name: d.name })));
}
