import type { TailPoint } from "@fleet/contracts";
import { distanceKm, isGpsJump } from "@fleet/geo";
import type { PositionHandler } from "./context.js";
import { before } from "./order.js";

type Fix = { fixTime: number; latitude: number; longitude: number };

const between = (a: Fix, b: Fix) => distanceKm({ lat: a.latitude, lng: a.longitude }, { lat: b.latitude, lng: b.longitude });
const isFast = (km: number, a: Fix, b: Fix) => isGpsJump(km, b.fixTime - a.fixTime);

/**
 * What the odometer takes back when this newest fix, `km` from the one before it (`spike`, the
 * tail's last), shows that one was a GPS spike: reached and left faster than GPS_JUMP_KMH, from
 * a fix reached normally (history's rule, @fleet/trips' stepDistances, as far as the fixes so
 * far tell). The km counted to the spike and from it become the km from the fix before it.
 */
function spikeCorrection(tail: readonly TailPoint[], raw: Fix, km: number): number {
  const spike = tail.at(-1);
  if (spike === undefined || !isFast(km, spike, raw)) return 0;
  const before = tail.at(-2);
  if (before === undefined) return 0;
  const beforeBefore = tail.at(-3);
  const toSpike = between(before, spike);
  if (!isFast(toSpike, before, spike) || (beforeBefore !== undefined && isFast(between(beforeBefore, before), beforeBefore, before))) return 0;
  return between(before, raw) - toSpike - km;
}

/** The detour a late fix `raw` between `prev` and `next` shows: a→b→c less a→c, never negative; none for a spike between them. */
function detourVia(prev: Fix, raw: Fix, next: Fix): number {
  const [toRaw, fromRaw] = [between(prev, raw), between(raw, next)];
  if (isFast(toRaw, prev, raw) && isFast(fromRaw, raw, next)) return 0;
  return Math.max(0, toRaw + fromRaw - between(prev, next));
}

/**
 * What the odometer gains when a late fix lands between two it already counted, `prev` and
 * the next one in the tail: the detour through it, which the straight step between them
 * missed. Nothing for a fix the tail already holds (a replay), nor for one whose fix before
 * is not in the tail (older fixes come with their next point from history: `ctx.next`).
 */
function detour(tail: readonly TailPoint[], prev: TailPoint, raw: Fix & { id: number }): number {
  let next: TailPoint | undefined;
  let prevHeld = false;
  for (const t of tail) {
    if (t.id === raw.id) return 0;
    if (t.id === prev.id) prevHeld = true;
    if (before(raw, t) && (next === undefined || before(t, next))) next = t;
  }
  return prevHeld && next !== undefined ? detourVia(prev, raw, next) : 0;
}

/**
 * Distance from the fix before this one in time, and the odometer. Rounded to 1e-6 km so a
 * replay stores the same distance. The stored distance is the step as measured; the odometer
 * measures the track in time order as history does: across a GPS spike, and through a late
 * fix (a device's buffer sent after its live fixes), which only adds the detour it shows.
 */
export const distance: PositionHandler = (ctx) => {
  const { prev, raw, current } = ctx;
  const km = prev ? between(prev, raw) : 0;
  ctx.distanceKm = Math.round(km * 1e6) / 1e6;
  if (!ctx.newest) {
    const { next } = ctx;
    let late = 0;
    // From the tail, or for a fix older than it from the point found after it (null: a replay).
    if (prev !== undefined && next !== null) late = next === undefined ? detour(current!.tail, prev, raw) : detourVia(prev, raw, next);
    ctx.odometerKm = current!.odometerKm + Math.round(late * 1e6) / 1e6;
    return;
  }
  const tail = current?.tail;
  // Only a step too fast for a vehicle can follow a spike: the rest cost nothing more.
  const correction = tail !== undefined && prev !== undefined && prev.id === tail.at(-1)?.id ? spikeCorrection(tail, raw, ctx.distanceKm) : 0;
  ctx.odometerKm = (current?.odometerKm ?? 0) + ctx.distanceKm + correction;
};
