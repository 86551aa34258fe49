import { distanceKm } from "@fleet/geo";
import { KNOTS_TO_KMH, knownAttribute, TAIL_MAX, type EnrichedPosition, type HistoryRow, type LiveState, type RawPosition, type TailPoint } from "@fleet/contracts";
import { engineOn, isMoving } from "@fleet/sensors";
import type { DeviceInfo } from "./device-directory.js";

export interface Enriched {
  history: HistoryRow;
  enriched: EnrichedPosition;
  /** The device's live state after this position (unchanged fields when the fix is older). */
  state: LiveState;
}

type Ordered = { fixTime: number; id: number };
const before = (a: Ordered, b: Ordered) => a.fixTime < b.fixTime || (a.fixTime === b.fixTime && a.id < b.id);

/**
 * The known point just before `p` in time (never `p` itself), among the device's tail
 * and the point handled just before it in this batch: the same answer on a replay.
 * The tail holds the device's most recent points, so any point between its oldest and
 * `p` is in it. When `p` is older than a full tail, the answer is not known here
 * (`known: false`) and the caller asks history.
 */
export function previousPoint(tail: readonly TailPoint[], inBatch: TailPoint | undefined, p: Ordered): { prev: TailPoint | undefined; known: boolean } {
  let prev: TailPoint | undefined;
  for (const t of tail) if (t.id !== p.id && before(t, p) && (!prev || before(prev, t))) prev = t;
  if (inBatch && inBatch.id !== p.id && before(inBatch, p) && (!prev || before(prev, inBatch))) prev = inBatch;
  return { prev, known: prev !== undefined || tail.length < TAIL_MAX };
}

function withPoint(tail: readonly TailPoint[], point: TailPoint): TailPoint[] {
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

/** Whether the engine runs at this fix, by the device's engine sensor or, failing that, motion. */
export function engineOnAt(device: DeviceInfo, raw: RawPosition, speedKmh: number): boolean {
  const sensors = device.engineSensor ? [device.engineSensor] : [];
  return engineOn({ detectEngine: device.detectEngine ?? "gps", minMovingSpeed: device.minMovingSpeed }, sensors, { attributes: raw.attributes, speedKmh });
}

/**
 * Engine-on seconds after a new latest fix, counted as Traccar counts engine hours: the
 * time since the previous latest fix is added when the engine was on at both. A state
 * from before the tracker counted starts from zero.
 */
function engineSecondsAfter(current: LiveState | undefined, on: boolean, fixTime: number): number {
  const before = current?.engineSeconds ?? 0;
  if (!current?.engineOn || !on) return before;
  return before + Math.max(0, fixTime - current.fixTime) / 1000;
}

/**
 * The fix as history rows, enriched positions and the live state all carry it. Built as a
 * literal and extended with Object.assign: the tracker makes three such objects per
 * position, and object spreads and rest copies cost several times more (enrich went from
 * ~13 to ~2.5 µs a position).
 */
function fixFields(raw: RawPosition, deviceId: number, speedKmh: number) {
  return {
    deviceId,
    uniqueId: raw.uniqueId,
    protocol: raw.protocol,
    latitude: raw.latitude,
    longitude: raw.longitude,
    altitude: raw.altitude,
    course: raw.course,
    speedKmh,
    fixTime: raw.fixTime,
    serverTime: raw.serverTime,
    attributes: raw.attributes,
  };
}

/**
 * One position through the tracker's pure steps: units, distance from `prev` (the
 * device's fix just before it in time), and the live state it leads to (engine state and
 * engine time move with the newest fix only; an older fix leaves them as they are).
 * Deterministic for a replayed message, so history rows written again are identical.
 */
export function enrichPosition(raw: RawPosition, device: DeviceInfo, current: LiveState | undefined, prev: TailPoint | undefined): Enriched {
  const speedKmh = Math.round(raw.speed * KNOTS_TO_KMH * 100) / 100;
  const point: TailPoint = { id: raw.id, fixTime: raw.fixTime, latitude: raw.latitude, longitude: raw.longitude };
  const distance = prev ? distanceKm({ lat: prev.latitude, lng: prev.longitude }, { lat: raw.latitude, lng: raw.longitude }) : 0;
  const distanceRounded = Math.round(distance * 1e6) / 1e6;
  const isNewer = !current || before({ fixTime: current.fixTime, id: current.positionId }, point);
  const isLatest = isNewer || current?.positionId === raw.id;

  const tail = withPoint(current?.tail ?? [], point);
  // Every fix's engine state goes to history, where engine time can be summed again from.
  const on = engineOnAt(device, raw, speedKmh);
  let state: LiveState;
  if (current && !isNewer) {
    state = { ...current, tail };
  } else {
    state = Object.assign(fixFields(raw, device.id, speedKmh), {
      positionId: raw.id,
      movedAt: speedKmh >= device.minMovingSpeed ? raw.fixTime : (current?.movedAt ?? raw.fixTime),
      odometerKm: (current?.odometerKm ?? 0) + distanceRounded,
      engineOn: on,
      engineSeconds: engineSecondsAfter(current, on, raw.fixTime),
      tail,
    });
  }

  const valid = knownAttribute(raw.attributes, "valid");
  const history: HistoryRow = Object.assign(fixFields(raw, device.id, speedKmh), { id: raw.id, distanceKm: distanceRounded, valid: valid !== false && valid !== "false", engineOn: on });
  const moving = isMoving(speedKmh, device.minMovingSpeed, { hasSensor: device.engineSensor !== undefined, on });
  const enriched: EnrichedPosition = Object.assign(fixFields(raw, device.id, speedKmh), { id: raw.id, distanceKm: distanceRounded, userIds: device.userIds, latest: isLatest, engineOn: on, moving });
  return { history, enriched, state };
}
