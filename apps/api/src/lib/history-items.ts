import type { Attributes, HistoryGroupItem, HistoryRow } from "@fleet/contracts";
import { readSensor, toNumber, type SensorDefinition, type SensorInput } from "@fleet/sensors";
import { round, type UserUnits } from "./units.js";
import { xmlText } from "./xml.js";

/*
 * A history position as the vendor's clients read it (the spec's position fields plus
 * `sensors_data`). Everything that does not depend on the position (units, the clock, the
 * sensor columns) is decided once per answer in HistoryItemContext.
 */

export interface HistoryItemContext {
  deviceId: number;
  units: UserUnits;
  /** `YYYY-MM-DD HH:MM:SS` on the user's clock. */
  time: (ms: number) => string;
  /** The device's sensors whose value each position shows, as `sensor_<id>`. */
  sensors: readonly SensorDefinition[];
}


/** The attributes as the vendor's `other` XML (`<info><battery>73</battery></info>`); keys are already `[a-z0-9_-]`. */
export function otherXml(attributes: Attributes): string {
  let out = "<info>";
  for (const key in attributes) {
    const v = attributes[key]!;
    out += "<" + key + ">" + (typeof v === "string" ? xmlText(v) : String(v)) + "</" + key + ">";
  }
  return out + "</info>";
}

/** The attributes as `key: value` lines (the vendor's `other_arr`). */
export function otherArr(attributes: Attributes): string[] {
  const out: string[] = [];
  for (const key in attributes) out.push(`${key}: ${String(attributes[key])}`);
  return out;
}

/**
 * A sensor's value at a position: its number, 1/0 for on/off, "-" when the position does
 * not tell. A virtual odometer counts GPS distance up to now, which no past position
 * holds, so it reads "-" in history.
 */
function sensorValue(def: SensorDefinition, input: SensorInput): number | string {
  if (def.type === "odometer" && def.odometerValueBy === "virtual_odometer") return "-";
  const { value } = readSensor(def, input);
  if (typeof value === "number") return round(value, 2);
  if (typeof value === "boolean") return value ? 1 : 0;
  return "-";
}

export function historyItem(ctx: HistoryItemContext, row: HistoryRow, stepKm: number): HistoryGroupItem {
  const { units } = ctx;
  const time = ctx.time(row.fixTime);
  const speed = Math.round(units.speed(row.speedKmh));
  const altitude = Math.round(units.altitude(row.altitude));
  const sensorsData: HistoryGroupItem["sensors_data"] = [
    { id: "speed", value: speed },
    { id: "altitude", value: altitude },
  ];
  if (ctx.sensors.length > 0) {
    const input: SensorInput = { attributes: row.attributes, speedKmh: row.speedKmh, odometerKm: 0, engineSeconds: 0 };
    for (const def of ctx.sensors) sensorsData.push({ id: `sensor_${def.id}`, value: sensorValue(def, input) });
  }
  return {
    id: row.id,
    device_id: ctx.deviceId,
    item_id: `i${row.id}`,
    time,
    raw_time: time,
    server_time: ctx.time(row.serverTime),
    sort: Math.floor(row.fixTime / 1000),
    latitude: row.latitude,
    longitude: row.longitude,
    lat: row.latitude,
    lng: row.longitude,
    altitude,
    course: row.course,
    speed,
    distance: round(units.distance(stepKm), 3),
    power: toNumber(row.attributes.power),
    valid: row.valid ? "1" : "0",
    protocol: row.protocol,
    other: otherXml(row.attributes),
    other_arr: otherArr(row.attributes),
    sensors_data: sensorsData,
  };
}
