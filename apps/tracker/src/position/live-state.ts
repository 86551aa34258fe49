import { TAIL_MAX, type Attributes, type LiveState, type TailPoint } from "@fleet/contracts";
import { fixFields, type PositionHandler } from "./context.js";
import { before } from "./order.js";

/**
 * The tail with `point` in its place, at most TAIL_MAX points, oldest first. Points kept
 * are the same objects: the live store sends only what was added by matching them by
 * identity (@fleet/live WrittenTails).
 */
export function withPoint(tail: readonly TailPoint[], point: TailPoint): TailPoint[] {
  const last = tail.at(-1);
  // The usual case, a fix newer than every point held: append without sorting.
  if (!last || before(last, point)) {
    const next = tail.length >= TAIL_MAX ? tail.slice(tail.length - TAIL_MAX + 1) : tail.slice();
    next.push(point);
    return next;
  }
  if (tail.some((t) => t.id === point.id)) return [...tail];
  const next = [...tail, point].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  return next.length > TAIL_MAX ? next.slice(next.length - TAIL_MAX) : next;
}

/** What a fix tells of that moment only: not carried to the fixes after it. */
const MOMENTARY = new Set(["alarm", "event", "result"]);

/**
 * The newest fix's attributes over the values the device sent before and left out of it: a
 * heartbeat or an alarm message without the fuel, odometer or engine-hours tag keeps the last
 * reading (the vendor's sensors keep their last value), not "-" or a fallback counter.
 */
export function carriedAttributes(before: Attributes | undefined, now: Attributes): Attributes {
  if (before === undefined) return now;
  // Most devices send the same tags every time: nothing to carry, nothing to copy.
  let carries = false;
  for (const k in before) {
    if (!(k in now) && !MOMENTARY.has(k)) {
      carries = true;
      break;
    }
  }
  if (!carries) return now;
  const out: Record<string, Attributes[string]> = {};
  for (const k in before) if (!MOMENTARY.has(k)) out[k] = before[k]!;
  return Object.assign(out, now);
}

/**
 * The device's live state after this position: the newest fix with the running values
 * the handlers before worked out, or, for an older fix, the current state with only the
 * point added to its tail (so later fixes find it as their predecessor), the odometer with
 * the detour it showed, and its arrival as the device's last contact.
 */
export const liveState: PositionHandler = (ctx) => {
  const { raw, current } = ctx;
  const tail = withPoint(current?.tail ?? [], { id: raw.id, fixTime: raw.fixTime, latitude: raw.latitude, longitude: raw.longitude });
  let state: LiveState;
  if (current && !ctx.newest) {
    // Any fix is contact: a device emptying its backlog is online, and not offline to its alerts.
    state = { ...current, serverTime: Math.max(current.serverTime, raw.serverTime), odometerKm: ctx.odometerKm, tail };
  } else {
    state = Object.assign(fixFields(ctx), {
      attributes: carriedAttributes(current?.attributes, raw.attributes),
      arrivedAt: raw.serverTime,
      positionId: raw.id,
      movedAt: ctx.movedAt,
      odometerKm: ctx.odometerKm,
      engineOn: ctx.engineOn,
      engineSeconds: ctx.engineSeconds,
      tail,
    });
  }
  ctx.state = state;
};
