import { DEFAULT_HISTORY_PAGE_LIMIT, HISTORY_PAGE_LIMITS, parseRange, round, userUnits, type DeleteHistoryPositionsBody, type GetHistoryMessagesQuery, type GetHistoryMessagesResponse, type HistoryPosition, type HistoryRow, type UserUnits } from "@fleet/contracts";
import { findUserDevice, listUserDevices, type Db, type Sensor, type User } from "@fleet/db";
import type { HistoryPager, HistoryStore } from "@fleet/history";
import { readSensor, sensorInput, type SensorDefinition, type SensorInput } from "@fleet/sensors";
import { clockOf } from "../lib/clock.js";
import { otherArr, otherXml } from "../lib/attribute-members.js";
import type { LiveRecordCache } from "../lib/live-records.js";
import { localTimes } from "../lib/local-times.js";
import { paginate } from "../lib/pagination.js";
import { stepsByRow } from "@fleet/trips";
import { STEP_CONTEXT } from "../lib/track-steps.js";
import { found } from "./found.js";
import { record as sensorRecord, type LiveStates } from "./sensors.js";

/*
 * get_history_messages: a device's raw positions in a period on the user's clock, a page at a
 * time, each with its sensors read at that fix; delete_history_positions: some of them gone.
 */

export interface HistoryMessagesDeps {
  db: Db;
  /** The device and its sensors, from the live list's cache of records rather than two queries a page. */
  records: LiveRecordCache;
  live: LiveStates;
  pager: HistoryPager;
  history: Pick<HistoryStore, "deletePositions">;
}

const PAGINATION_LIMITS = Object.fromEntries(HISTORY_PAGE_LIMITS.map((n) => [String(n), n]));

/** What every position of one answer shares. */
interface PositionContext {
  units: UserUnits;
  time: (ms: number) => string;
  sensors: readonly SensorDefinition[];
}

/**
 * A sensor's text at a fix ("12.5 V", "On", "-"). A virtual odometer counts GPS distance up
 * to now, which no past position holds, so it reads "-" here as in get_history.
 */
function sensorText(def: SensorDefinition, input: SensorInput): string {
  if (def.type === "odometer" && def.odometerValueBy === "virtual_odometer") return "-";
  return readSensor(def, input).text;
}

function positionRecord(ctx: PositionContext, row: HistoryRow, stepKm: number): HistoryPosition {
  const id = String(row.id);
  const input: SensorInput = { attributes: row.attributes, speedKmh: row.speedKmh, odometerKm: 0, engineSeconds: 0 };
  const popup: HistoryPosition["popup_sensors"] = {};
  const values: HistoryPosition["sensors_value"] = {};
  for (const def of ctx.sensors) {
    const value = sensorText(def, input);
    values[def.id] = value;
    if (def.showInPopup) popup[def.id] = { name: def.name, value };
  }
  const power = row.attributes.power;
  return {
    id,
    device_id: String(row.deviceId),
    altitude: Math.round(ctx.units.altitude(row.altitude)),
    course: String(row.course),
    latitude: String(row.latitude),
    longitude: String(row.longitude),
    other: otherXml(row.attributes),
    power: power === undefined ? null : String(power),
    speed: Math.round(ctx.units.speed(row.speedKmh)),
    time: ctx.time(row.fixTime),
    server_time: ctx.time(row.serverTime),
    valid: row.valid ? "1" : "0",
    distance: String(round(ctx.units.distance(stepKm), 6)),
    protocol: row.protocol,
    sensor_id: id,
    sort: Math.floor(row.fixTime / 1000),
    other_arr: otherArr(row.attributes),
    popup_sensors: popup,
    sensors_value: values,
  };
}

/** A page of the device's positions in the period, oldest first; `url` is the request's, for the page links. */
export async function historyMessages(deps: HistoryMessagesDeps, user: User, query: GetHistoryMessagesQuery, url: string): Promise<GetHistoryMessagesResponse> {
  const clock = clockOf(user);
  const range = parseRange(clock, query);
  const { device, sensors } = await found(
    deps.records.of(user.id).then((records) => records.get(query.device_id)),
    "Device",
  );
  const page = { page: query.page ?? 1, perPage: query.limit ?? DEFAULT_HISTORY_PAGE_LIMIT };
  const offset = (page.page - 1) * page.perPage;
  const before = Math.min(offset, STEP_CONTEXT);
  const [{ total, rows: window }, states] = await Promise.all([
    deps.pager.page({ deviceId: device.id, ...range }, offset - before, before + page.perPage + STEP_CONTEXT),
    deps.live.getStates([device.id]),
  ]);
  const ctx: PositionContext = { units: userUnits(user), time: localTimes(clock), sensors };
  const steps = stepsByRow(window);
  const rows = window.slice(before, before + page.perPage);
  const messages = paginate({ url }, page, total, rows.map((r) => positionRecord(ctx, r, steps.get(r.id) ?? 0)));
  const state = states.get(device.id);
  return {
    messages,
    // As get_sensors lists them: each with its reading now.
    sensors: sensors.map((s: Sensor) => sensorRecord(s, state ? sensorInput(state) : undefined)),
    pagination_limits: PAGINATION_LIMITS,
    limit: page.perPage,
    sorting: "asc",
    status: 1,
  };
}

/**
 * Deletes the given positions of the user's devices (of `deviceId` alone when given, which
 * must be the user's). Ids of other devices' positions, missing or another user's, are
 * ignored alike. One statement (at most 5,000 ids): all of them go, or none. No `id` selects
 * nothing (the device is still checked).
 */
export async function deleteHistoryPositions(deps: HistoryMessagesDeps, user: User, body: DeleteHistoryPositionsBody, deviceId: number | undefined): Promise<void> {
  const ids = body.id === undefined ? [] : Array.isArray(body.id) ? body.id : [body.id];
  const devices = deviceId === undefined ? (await listUserDevices(deps.db, user.id)).map((d) => d.id) : [(await found(findUserDevice(deps.db, user.id, deviceId), "Device")).id];
  if (ids.length === 0) return;
  await deps.history.deletePositions(devices, ids);
  for (const d of devices) deps.pager.forget(d);
}
