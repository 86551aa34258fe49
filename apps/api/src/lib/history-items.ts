import type { PositionWithFields } from "@fleet/history";
import { readSensor, type SensorDefinition, type SensorInput } from "@fleet/sensors";
import { attributeMembers, attributeMembersOfText } from "./attribute-members.js";
import { jsonNumber } from "./json-write.js";
import { round, type UserUnits } from "@fleet/contracts";

/*
 * The part of a history position (the spec's position fields plus `sensors_data`) that the
 * api writes, after the fields the history store returns. Everything that does not depend on
 * the position (units, the clock, the sensor columns) is decided once per answer in
 * HistoryItemContext.
 */

export interface HistoryItemContext {
  units: UserUnits;
  /** `YYYY-MM-DD HH:MM:SS` on the user's clock. */
  time: (ms: number) => string;
  /** The device's sensors whose value each position shows, as `sensor_<id>`. */
  sensors: readonly SensorDefinition[];
}

/**
 * A sensor's value at a position: its number, 1/0 for on/off, "-" when the position does
 * not tell. A virtual odometer counts GPS distance up to now, which no past position
 * holds, so it reads "-" in history.
 */
function sensorValue(def: SensorDefinition, input: SensorInput): number | "-" {
  if (def.type === "odometer" && def.odometerValueBy === "virtual_odometer") return "-";
  const { value } = readSensor(def, input);
  if (typeof value === "number") return round(value, 2);
  if (typeof value === "boolean") return value ? 1 : 0;
  return "-";
}


/**
 * The members of a history position's JSON that depend on the user and the track, from the
 * comma after the stored fields (@fleet/history's positions-with-fields.ts) to the closing brace:
 * the times on the user's clock, speed and altitude in the user's units, the distance from
 * the fix before, power, the attributes (other, other_arr) and `sensors_data`. Written as text,
 * not built as an object and stringified: a device-day is ~8,600 of them (docs/decisions.md,
 * get_history). Times are digits and separators, values numbers or "-", and the attribute
 * texts are stringified.
 */
export function historyItemTail(ctx: HistoryItemContext, row: PositionWithFields, stepKm: number): string {
  const { units } = ctx;
  const time = ctx.time(row.fixTime);
  const speed = jsonNumber(Math.round(units.speed(row.speedKmh)));
  const altitude = jsonNumber(Math.round(units.altitude(row.altitude)));
  // Joined from an array rather than concatenated: `join` makes one flat string, where `+` and
  // templates build a tree of pieces that writing it out must first flatten (~10 ms a device-day).
  const parts = [
    ',"time":"', time, '","raw_time":"', time, '","server_time":"', ctx.time(row.serverTime),
    '","altitude":', altitude, ',"speed":', speed, ',"distance":', jsonNumber(round(units.distance(stepKm), 3)),
    attributeMembersOfText(row.attributesText) ?? attributeMembers(row.attributes),
    ',"sensors_data":[{"id":"speed","value":', speed, '},{"id":"altitude","value":', altitude, "}",
  ];
  if (ctx.sensors.length > 0) {
    const input: SensorInput = { attributes: row.attributes, speedKmh: row.speedKmh, odometerKm: 0, engineSeconds: 0 };
    for (const def of ctx.sensors) {
      const value = sensorValue(def, input);
      parts.push(`,{"id":"sensor_${def.id}","value":${value === "-" ? '"-"' : jsonNumber(value)}}`);
    }
  }
  parts.push("]}");
  return parts.join("");
}
