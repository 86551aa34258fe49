import {
  NotFoundError, assertNoErrors, readChangeActive,
  detectEngineOptions, deviceIconIds, deviceIcons, engineHoursOptions, fuelMeasurementIds, fuelMeasurements, timezones,
  type AddDeviceBody, type ChangeActiveDevice, type DeviceListFilter, type EditDeviceBody, type EditDeviceDataResponse, type EditDeviceItem, type GetDevicesQuery, type LatestDeviceItem, type LiveDeviceItem, type LiveState,
} from "@fleet/contracts";
import {
  UserGroup, createDevice, destroyDevice, findUserDevice, listDeviceGroups, listUsers, setDevicesActive, updateDevice,
  type CreateDeviceInput, type Db, type UpdateDeviceInput, type User, type UserDeviceRecord,
} from "@fleet/db";
import type { Geocoder } from "@fleet/geocoder";
import { indexCovers, type LiveStore } from "@fleet/live";
import { todayIn } from "@fleet/sensors";
import { clockOf } from "../lib/clock.js";
import { liveExtras } from "../lib/live-extras.js";
import { deviceData, liveItem, liveListContext } from "../lib/live-item.js";
import { latestItem } from "../lib/live-latest.js";
import type { LiveRecord, LiveRecordCache, UserRecords } from "../lib/live-records.js";
import type { LiveStateCache } from "../lib/live-states.js";
import type { ApiSettings } from "../plugins/app/services.js";
import { listFilter } from "./device-list-filter.js";
import { worded, type Wording } from "./refusals.js";
import { polled } from "./events.js";
import { found } from "./found.js";

/*
 * Devices: the form's option lists, add, edit, destroy, the user's active flag, and the
 * live list (get_devices, get_devices_latest). The writes announce their own device
 * changes (see @fleet/db's device-changes), so nothing here marks the live store.
 */

const WHAT = "Device";

/** What the live list reads besides the database. */
export interface LiveView {
  db: Db;
  live: LiveStore;
  /** Names the addresses of a poll's new events, as get_events does. */
  geocoder: Pick<Geocoder, "reverse">;
  liveRecords: LiveRecordCache;
  /** For the whole-fleet lists; absent, every state is read from `live`. */
  liveStates?: LiveStateCache;
  settings: ApiSettings;
}

/** Ids the catalogues do not hold (the schema only knows they are integers); absent ones are not checked. */
function assertInCatalogues(b: Pick<EditDeviceBody, "icon_id" | "fuel_measurement_id">): void {
  const errors: Record<string, string> = {};
  if (b.icon_id !== undefined && !deviceIconIds.has(b.icon_id)) errors.icon_id = "The selected icon id is invalid.";
  if (b.fuel_measurement_id !== undefined && !fuelMeasurementIds.has(b.fuel_measurement_id)) errors.fuel_measurement_id = "The selected fuel measurement id is invalid.";
  assertNoErrors(errors);
}

// The writes refuse imei and group id in the default words; the plan's limit is told on the imei.
const addWording: Wording = { devicesLimit: { field: "imei", message: (r) => `Your account may hold at most ${r.kind === "limit" ? r.limit : 0} devices.` } };

/** The option lists of the device form, shared by `add_device_data` and `edit_device_data`. */
export async function formOptions(db: Db, user: User) {
  const groups = await listDeviceGroups(db, user.id);
  const users = user.groupId === UserGroup.administrator ? await listUsers(db) : [];
  return {
    device_groups: [{ id: 0, value: "Ungrouped" }, ...groups.map((g) => ({ id: g.id, value: g.title }))],
    sensor_groups: [{ id: 0, value: "None" }],
    device_fuel_measurements: fuelMeasurements,
    device_icons: deviceIcons,
    users: users.map((u) => ({ id: u.id, email: u.email })),
    timezones: [{ id: 0, value: "Default" }, ...timezones],
    expiration_date_select: { "1": "Set expiration date", "0000-00-00": "No expiration date" },
    status: 1 as const,
  };
}

/**
 * The device columns add_device takes (edit_device takes them too); a field left out is
 * undefined. Only these are read: fields the schema does not declare pass validation unchecked.
 */
function deviceFields(b: Partial<AddDeviceBody>) {
  return {
    name: b.name,
    imei: b.imei,
    iconId: b.icon_id,
    fuelMeasurementId: b.fuel_measurement_id,
    tailLength: b.tail_length,
    minMovingSpeed: b.min_moving_speed,
    minFuelFillings: b.min_fuel_fillings,
    minFuelThefts: b.min_fuel_thefts,
    fuelQuantity: b.fuel_quantity,
    fuelPrice: b.fuel_price,
    deviceIconsType: b.device_icons_type,
    simNumber: b.sim_number,
    vin: b.vin,
    deviceModel: b.device_model,
    plateNumber: b.plate_number,
    registrationNumber: b.registration_number,
    objectOwner: b.object_owner,
    additionalNotes: b.additional_notes,
    iconColors: { moving: b.icon_moving, stopped: b.icon_stopped, offline: b.icon_offline, engine: b.icon_engine },
  };
}

export async function add(db: Db, user: User, body: AddDeviceBody) {
  assertInCatalogues(body);
  // What add_device leaves out is the column's default; 0 is "Ungrouped" and "the user's timezone" alike.
  const input: CreateDeviceInput = { ...deviceFields(body), name: body.name, imei: body.imei, groupId: body.group_id || null, timezoneId: body.timezone_id || null };
  const device = await worded(createDevice(db, user.id, input, { devicesLimit: user.devicesLimit }), addWording);
  return { status: 1 as const, id: device.id };
}

function editItem(d: UserDeviceRecord, user: User): EditDeviceItem {
  return { ...deviceData(d, user), additional_notes: d.additionalNotes, device_icons_type: d.deviceIconsType, icon_colors: { ...d.iconColors } };
}

/** add_device_data's option lists plus the device to edit. */
export async function editData(db: Db, user: User, deviceId: number): Promise<EditDeviceDataResponse> {
  const device = await findUserDevice(db, user.id, deviceId);
  if (!device) throw new NotFoundError(WHAT);
  return { ...(await formOptions(db, user)), item: editItem(device, user), engine_hours: engineHoursOptions, detect_engine: detectEngineOptions };
}

export async function edit(db: Db, user: User, body: EditDeviceBody): Promise<void> {
  assertInCatalogues(body);
  // Left out keeps the stored value; group 0 is add_device_data's "Ungrouped".
  const input: UpdateDeviceInput = {
    ...deviceFields(body),
    tailColor: body.tail_color,
    engineHours: body.engine_hours,
    detectEngine: body.detect_engine,
    groupId: body.group_id === undefined ? undefined : body.group_id || null,
    timezoneId: body.timezone_id,
  };
  if (!(await updateDevice(db, user.id, body.device_id, input))) throw new NotFoundError(WHAT);
}

export async function destroy(db: Db, live: LiveStore, user: User, deviceId: number): Promise<void> {
  const result = await destroyDevice(db, user.id, deviceId);
  if (!result) throw new NotFoundError(WHAT);
  // No one can see a deleted device's state again; a new device with its IMEI gets a new id.
  if (result.deleted) await live.deleteStates([deviceId]);
}

export async function changeActive(db: Db, user: User, input: ChangeActiveDevice) {
  const { ids, active } = readChangeActive(input);
  return found(setDevicesActive(db, user.id, ids, active), WHAT);
}

/**
 * The live list's items of these records, each with its device's latest state, at `now` on
 * the store's clock. `whole`: the user's whole fleet, whose states come through the cache.
 */
async function liveItems({ live, liveStates, settings }: LiveView, user: User, records: readonly LiveRecord[], now: number, whole = false): Promise<{ items: LiveDeviceItem[]; states: ReadonlyMap<number, LiveState> }> {
  if (records.length === 0) return { items: [], states: new Map() };
  const ids = records.map((r) => r.device.id);
  // Items show each device's last tail_length points; the state keeps up to thirty.
  let tailMax = 0;
  for (const r of records) tailMax = Math.max(tailMax, r.device.tailLength);
  const states = await (whole && liveStates ? liveStates.ofUser(user.id, ids, tailMax) : live.getStates(ids, tailMax));
  const ctx = liveListContext(user, now, settings.offlineAfterMs);
  const items = records.map((r) => {
    const state = states.get(r.device.id);
    return liveItem(r, state, ctx, liveExtras(user, r, state, now));
  });
  return { items, states };
}

/** The devices get_devices pages by when a client gives page or limit without the other (the Swagger's default). */
const DEVICES_PER_PAGE = 100;

/**
 * get_devices: the user's devices by group, "Ungrouped" first; groups without devices are
 * left out. Filtered as the query says and, with `limit` or `page`, one page of the devices
 * in that order, grouped the same way.
 */
export async function liveList(view: LiveView, user: User, query: GetDevicesQuery) {
  const filter = listFilter(query);
  const [records, groups] = await Promise.all([view.liveRecords.of(user.id), listDeviceGroups(view.db, user.id)]);
  const all = records.all();
  const order = new Map<number, number>([[0, 0], ...groups.map((g, i): [number, number] => [g.id, i + 1])]);
  const groupOf = (r: LiveRecord) => r.device.pivot.groupId ?? 0;
  // A device in a group this answer does not list is left out, as before paging.
  let listed = all.filter((r) => order.has(groupOf(r)) && filter.record(r.device));
  listed.sort((a, b) => order.get(groupOf(a))! - order.get(groupOf(b))!);
  const paged = query.limit !== undefined || query.page !== undefined;
  const page = <T>(list: T[]) => {
    const per = query.limit ?? DEVICES_PER_PAGE;
    const from = ((query.page ?? 1) - 1) * per;
    return list.slice(from, from + per);
  };
  const now = Date.now();
  // Without filters on state, the page is known before any state is read.
  if (paged && !filter.byState) listed = page(listed);
  let shown = (await liveItems(view, user, listed, now, true)).items.map((item, i) => ({ record: listed[i]!, item }));
  if (filter.byState) shown = shown.filter((s) => filter.item(s.item, now));
  if (paged && filter.byState) shown = page(shown);
  const byGroup = new Map<number, { id: number; title: string; items: LiveDeviceItem[] }>();
  byGroup.set(0, { id: 0, title: "Ungrouped", items: [] });
  for (const g of groups) byGroup.set(g.id, { id: g.id, title: g.title, items: [] });
  for (const s of shown) byGroup.get(groupOf(s.record))!.items.push(s.item);
  return [...byGroup.values()].filter((g) => g.items.length > 0);
}

/**
 * The records a poll from `since` lists: the changed ones, and at midnight in the user's
 * timezone every device with a service counted in days (its "days left" changed with
 * the date, though nothing was written).
 */
function changedRecords(records: UserRecords, deviceIds: readonly number[], user: User, since: number, now: number): LiveRecord[] {
  const picked = new Map<number, LiveRecord>();
  for (const id of deviceIds) {
    const r = records.get(id);
    if (r) picked.set(id, r);
  }
  if (todayIn(since, clockOf(user)) !== todayIn(now, clockOf(user))) {
    for (const r of records.all()) if (r.services.some((s) => s.expirationBy === "days")) picked.set(r.device.id, r);
  }
  return [...picked.values()].sort((a, b) => a.device.id - b.device.id);
}

/** get_devices_latest: the devices changed at or after `time` (unix seconds), the events recorded since, and the `time` to ask from next. */
export async function latest(view: LiveView, user: User, time: number | undefined, filterBy?: DeviceListFilter) {
  const filter = listFilter(filterBy);
  const since = time === undefined ? 0 : time * 1000;
  // The store's clock is read with the index, so a change after this read is stamped
  // at or after `now`, and asking again from floor(now) cannot miss it. Devices that went
  // offline in the meantime are in the index by their last serverTime.
  const { deviceIds, now } = await view.live.changedSince(user.id, since, view.settings.offlineAfterMs);
  // Read after the index, so the records are at least as new as the changes just read.
  const records = await view.liveRecords.of(user.id);
  // The change index keeps CHANGE_RETENTION_MS: a poll from further back than that
  // could miss a change the index has forgotten, so it gets every device instead.
  const complete = time !== undefined && indexCovers(since, now);
  const listed = (complete ? changedRecords(records, deviceIds, user, since, now) : records.all()).filter((r) => filter.record(r.device));
  const { items: all, states } = await liveItems(view, user, listed, now, !complete);
  const items: LatestDeviceItem[] = [];
  all.forEach((item, i) => {
    if (!filter.byState || filter.item(item, now)) items.push(latestItem(item, listed[i]!, states.get(item.id), user));
  });
  const next = Math.floor(now / 1000);
  // Events marked up to the second the answer's `time` names, where the next poll starts.
  // A first poll has none (the client has nothing to be told is new); marking an event
  // marks its device, so a poll that lists no device has none either.
  const events = time === undefined || deviceIds.length === 0 ? [] : await polled(view.db, view.live, view.geocoder, user, since, next * 1000);
  return { items, events, time: next, version: view.settings.version };
}
