import { NotFoundError, type AddUserDriverBody, type DriverRecord, type EditUserDriverBody, type UserClock } from "@fleet/contracts";
import { createDriver, destroyDriver, findUserDriver, listDriverDeviceChoices, pageUserDrivers, updateDriver, type Db, type Driver, type DriverInput, type User } from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { found } from "./found.js";

/*
 * The user's drivers. Saving a driver makes it its device's current driver (by hand, so
 * the next RFID read may replace it); a device that is not the user's is refused by the
 * database as `deviceId`, which the default wording answers as device_id.
 */

const WHAT = "Driver";

/** The Driver record, times on the user's timezone; get_history names each group's driver with it too. */
export function driverRecord(d: Driver, clock: UserClock): DriverRecord {
  return {
    id: d.id,
    user_id: d.userId,
    ...(d.deviceId === null ? {} : { device_id: d.deviceId }),
    device_port: null,
    name: d.name,
    rfid: d.rfid,
    phone: d.phone,
    email: d.email,
    description: d.description,
    created_at: clock.format(d.createdAt.getTime()),
    updated_at: clock.format(d.updatedAt.getTime()),
  };
}

function input(b: AddUserDriverBody): DriverInput {
  return { deviceId: b.device_id, name: b.name, rfid: b.rfid, phone: b.phone, email: b.email, description: b.description };
}

/** The `devices` map of the *_data endpoints; keys are ids as text, as JSON objects have them. */
async function deviceChoices(db: Db, userId: number): Promise<Record<string, string>> {
  return Object.fromEntries([...(await listDriverDeviceChoices(db, userId))].map(([id, name]) => [String(id), name]));
}

/** A page of the user's drivers by id; `url` is the request's, for the page links. */
export async function list(db: Db, user: User, query: { page?: number; per_page?: number }, url: string) {
  const page = pageRequest(query);
  const { total, rows } = await pageUserDrivers(db, user.id, pageWindow(page));
  return { items: { drivers: paginate({ url }, page, total, rows.map((d) => driverRecord(d, clockOf(user)))) }, status: 1 as const };
}

export async function addData(db: Db, user: User) {
  return { devices: await deviceChoices(db, user.id), status: 1 as const };
}

export async function add(db: Db, user: User, body: AddUserDriverBody) {
  const r = driverRecord(await createDriver(db, user.id, input(body)), clockOf(user));
  return { status: 1 as const, item: { name: r.name, user_id: r.user_id, updated_at: r.updated_at, created_at: r.created_at, id: r.id } };
}

export async function editData(db: Db, user: User, driverId: number) {
  const driver = await findUserDriver(db, user.id, driverId);
  if (!driver) throw new NotFoundError(WHAT);
  return { item: driverRecord(driver, clockOf(user)), devices: await deviceChoices(db, user.id), status: 1 as const };
}

export const edit = (db: Db, user: User, body: EditUserDriverBody) => found(updateDriver(db, user.id, body.id, input(body)), WHAT);

export const destroy = (db: Db, user: User, driverId: number) => found(destroyDriver(db, user.id, driverId), WHAT);
