import type { HistoryRow } from "@fleet/contracts";
import { isMoving } from "@fleet/sensors";
import { groupStats, trackFacts, type TrackFacts } from "./stats.js";
import { orderedFixes, stepDistances } from "./track.js";
import { DEFAULT_MIN_STOP_MS, GroupStatus, type Group, type GroupStatusId, type SegmentOptions, type Segmentation } from "./types.js";

/**
 * The stops of a track, as [first, last] fix indexes: each a run of standing steps (see
 * TrackFacts.still) lasting at least `minStopMs`. A run at either end of the track is a
 * stop whatever its length: the range cut it, so it is the end of a stop that began
 * before the range or the start of one that went on after it. Shorter runs stay inside
 * their drive. A gap with no data longer than a stop is a standing step on its own, so it
 * always ends the drive.
 */
function stopSpans(t: TrackFacts, minStopMs: number): [number, number][] {
  const n = t.points.length;
  const spans: [number, number][] = [];
  const close = (a: number, b: number) => {
    if (a === 0 || b === n - 1 || t.points[b]!.fixTime - t.points[a]!.fixTime >= minStopMs) spans.push([a, b]);
  };
  let runStart = -1;
  for (let k = 1; k < n; k++) {
    if (t.still[k]) {
      if (runStart < 0) runStart = k - 1;
    } else if (runStart >= 0) {
      close(runStart, k - 1);
      runStart = -1;
    }
  }
  if (runStart >= 0) close(runStart, n - 1);
  return spans;
}

function group(t: TrackFacts, status: GroupStatusId, first: number, last: number): Group {
  return { status, first, last, ...groupStats(t, first, last, status === GroupStatus.stop) };
}

/** Start or end: the one fix, nothing summed. */
function marker(t: TrackFacts, status: GroupStatusId, at: number): Group {
  return { ...groupStats(t, at, at, false), status, first: at, last: at, topSpeedKmh: 0 };
}

/** Drives fill the time between stops; each shares its edge fixes with the stops beside it. */
function drivesAndStops(t: TrackFacts, minStopMs: number): Group[] {
  const n = t.points.length;
  if (n === 1) return [group(t, t.moving[0] ? GroupStatus.drive : GroupStatus.stop, 0, 0)];
  const out: Group[] = [];
  let cursor = 0;
  for (const [a, b] of stopSpans(t, minStopMs)) {
    if (a > cursor) out.push(group(t, GroupStatus.drive, cursor, a));
    out.push(group(t, GroupStatus.stop, a, b));
    cursor = b;
  }
  if (cursor < n - 1) out.push(group(t, GroupStatus.drive, cursor, n - 1));
  return out;
}

/**
 * A device's track cut into the vendor's history groups: start, then drives and stops in
 * time order, then end (events, status 5, are the caller's to merge in). A fix is moving
 * when its engine runs (always, for a device without an engine sensor) and its speed is
 * above the device's minimum moving speed. Independent of units and of HTTP, so the
 * history endpoint and reports cut a track the same way.
 */
export function segmentTrack<R extends HistoryRow>(rows: readonly R[], opts: SegmentOptions): Segmentation<R> {
  const minStopMs = opts.minStopMs ?? DEFAULT_MIN_STOP_MS;
  const points = orderedFixes(rows);
  const stepKm = stepDistances(points);
  const minSpeed = opts.minMovingSpeedKmh;
  const moving = points.map((p) => isMoving(p.speedKmh, minSpeed, { hasSensor: opts.hasEngineSensor, on: p.engineOn }));
  const t = trackFacts(points, stepKm, moving, minStopMs, opts);
  const totals = { distanceKm: 0, topSpeedKmh: 0, driveMs: 0, stopMs: 0, engineWorkMs: 0, engineIdleMs: 0, engineHoursMs: 0, fuelConsumed: 0 };
  if (points.length === 0) return { points, stepKm, moving, groups: [], totals };

  const middle = drivesAndStops(t, minStopMs);
  for (const g of middle) {
    totals.distanceKm += g.distanceKm;
    if (g.status === GroupStatus.drive) totals.driveMs += g.durationMs;
    else totals.stopMs += g.durationMs;
    totals.engineWorkMs += g.engineWorkMs;
    totals.engineIdleMs += g.engineIdleMs;
    totals.engineHoursMs += g.engineHoursMs;
    totals.fuelConsumed += g.fuelConsumed;
  }
  for (const p of points) if (p.speedKmh > totals.topSpeedKmh) totals.topSpeedKmh = p.speedKmh;
  const groups = [marker(t, GroupStatus.start, 0), ...middle, marker(t, GroupStatus.end, points.length - 1)];
  return { points, stepKm, moving, groups, totals };
}
