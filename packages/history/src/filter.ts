import type { QueryParams } from "./driver.js";

export function checkUint(name: string, v: number): number {
  if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
  return v;
}

export function checkEpochMs(name: string, v: number): number {
  if (!Number.isSafeInteger(v)) throw new RangeError(`${name} must be an integer epoch-ms, got ${v}`);
  return v;
}

/** `WHERE` clause and bound values for the optional device and inclusive time range. */
export function positionFilter(f: { deviceId?: number; fromMs?: number; toMs?: number }): { where: string; params: QueryParams } {
  const conds: string[] = [];
  const params: QueryParams = {};
  if (f.deviceId !== undefined) {
    conds.push("device_id = {deviceId:UInt64}");
    params.deviceId = checkUint("deviceId", f.deviceId);
  }
  if (f.fromMs !== undefined) {
    conds.push("fix_time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')");
    params.fromMs = checkEpochMs("fromMs", f.fromMs);
  }
  if (f.toMs !== undefined) {
    conds.push("fix_time <= fromUnixTimestamp64Milli({toMs:Int64}, 'UTC')");
    params.toMs = checkEpochMs("toMs", f.toMs);
  }
  return { where: conds.length > 0 ? `WHERE ${conds.join(" AND ")}` : "", params };
}
