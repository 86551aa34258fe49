import { ENGINE_STEP_MAX_MS, type HistoryRow } from "@fleet/contracts";
import { GAP_MS, STOP_GAP_MS, type GroupStats, type SegmentOptions } from "./types.js";

/**
 * A track's per-fix and per-step facts, worked out once so that each group's sums are
 * plain additions over its range. Step `k` is the time from fix `k - 1` to fix `k`.
 */
export interface TrackFacts {
  points: readonly HistoryRow[];
  stepKm: readonly number[];
  moving: readonly boolean[];
  /**
   * Whether step k was spent standing: neither end moving; a gap with no data longer than a
   * stop or than GAP_MS that the device crossed no faster than its minimum moving speed, or
   * that began parked with the engine off (a tracker that reports every 5 or 20 minutes while
   * parked starts its drive at its first moving fix, not at the last heartbeat, even when that
   * fix is already some way off); or a gap longer than a stop that lasted STOP_GAP_MS. A tracker that reports every two minutes while driving leaves
   * gaps longer than a one-minute stop, and is still driving across them.
   */
  still: readonly boolean[];
  /** ms of engine time in step k. */
  engineMs: readonly number[];
  /** Fuel used in step k (negative for a small rise, which cancels sensor noise); 0 without a fuel sensor. */
  fuelUsed: readonly number[];
  /** The driver card in effect at each fix (the last one read up to it). */
  driverKey: readonly (string | null)[];
}

/** Engine ms per step: the engine-hours sensor's difference where both ends read, else the step when the engine ran at both ends and it is at most ENGINE_STEP_MAX_MS (as the tracker counts engine time). */
function engineSteps(points: readonly HistoryRow[], hoursAt: SegmentOptions["engineHoursAt"]): number[] {
  const hours = hoursAt ? points.map(hoursAt) : undefined;
  const out = new Array<number>(points.length).fill(0);
  for (let k = 1; k < points.length; k++) {
    const dt = points[k]!.fixTime - points[k - 1]!.fixTime;
    const a = hours?.[k - 1];
    const b = hours?.[k];
    // A counter that jumps more than the time passed (a reset, a wrong reading) counts the time passed at most.
    if (a !== undefined && a !== null && b !== undefined && b !== null) out[k] = Math.min(dt, Math.max(0, (b - a) * 3_600_000));
    else if (points[k - 1]!.engineOn && points[k]!.engineOn && dt <= ENGINE_STEP_MAX_MS) out[k] = dt;
  }
  return out;
}

/**
 * Fuel used per step from the level sensor: a drop is fuel used, but not a filling or a theft,
 * found as the fuel reports and the fuel_change alert find them. Standing with the engine off,
 * the level is compared with the highest (for a theft) and lowest (for a filling) since the
 * stop began (or the last change in it ended), so a siphoning or a filling spread over many
 * fixes, or one after the other in a stop, is found once it reaches
 * `minTheft` / `minFilling`; its steps, those before it in the stop included, then count
 * nothing, nor do those after it while the level goes on the same way. On the move (or
 * idling) the level is compared with the reading before: a rise of at least `minFilling` is a
 * filling, a fall of at least `minTheft` a theft, anything less fuel used.
 * A smaller rise is sensor noise and is taken back from the drops, so a level wobbling about a
 * value uses nothing. A fix without a reading keeps the last level.
 */
function fuelSteps(points: readonly HistoryRow[], moving: readonly boolean[], fuel: SegmentOptions["fuel"]): number[] {
  const out = new Array<number>(points.length).fill(0);
  if (!fuel) return out;
  let level: number | null = null;
  /** Standing: the highest and lowest level since the stop began or the last change in it ended, and the steps counted since. */
  let hi: number | null = null;
  let lo: number | null = null;
  let since: number[] = [];
  /** A change found in the stop and still going: up (1) or down (-1). */
  let going = 0;
  for (let k = 0; k < points.length; k++) {
    const now = fuel.levelAt(points[k]!);
    if (now === null) continue;
    // The reading's own state, as the fuel reports read it: the stop's first fix is standing.
    const standing = !moving[k] && !points[k]!.engineOn;
    if (level !== null) {
      const drop = level - now;
      if (standing && going !== 0 && Math.sign(-drop) === going) {
        hi = lo = now;
      } else if (standing) {
        going = 0;
        const found: number = now - (lo ?? level) >= fuel.minFilling ? 1 : (hi ?? level) - now >= fuel.minTheft ? -1 : 0;
        if (found !== 0) {
          for (const j of since) out[j] = 0;
          [going, hi, lo, since] = [found, now, now, []];
        } else {
          out[k] = drop < 0 && -drop >= fuel.minFilling ? 0 : drop;
          if (hi === null || lo === null) hi = lo = now;
          else {
            [hi, lo] = [Math.max(hi, now), Math.min(lo, now)];
            since.push(k);
          }
        }
      } else {
        out[k] = (drop < 0 && -drop >= fuel.minFilling) || drop >= fuel.minTheft ? 0 : drop;
        [going, hi, lo, since] = [0, null, null, []];
      }
    } else if (standing) hi = lo = now;
    level = now;
  }
  return out;
}

function driverKeys(points: readonly HistoryRow[], keyAt: SegmentOptions["driverKeyAt"]): (string | null)[] {
  const out = new Array<string | null>(points.length).fill(null);
  if (!keyAt) return out;
  let current: string | null = null;
  for (let i = 0; i < points.length; i++) {
    current = keyAt(points[i]!) ?? current;
    out[i] = current;
  }
  return out;
}

export function trackFacts(points: readonly HistoryRow[], stepKm: readonly number[], moving: readonly boolean[], minStopMs: number, opts: SegmentOptions): TrackFacts {
  const still = new Array<boolean>(points.length).fill(false);
  for (let k = 1; k < points.length; k++) {
    const gapMs = points[k]!.fixTime - points[k - 1]!.fixTime;
    const slow = stepKm[k]! * 3_600_000 <= opts.minMovingSpeedKmh * gapMs;
    // Parked with the engine off at the gap's start: the vehicle left at some point in it, most likely near its end.
    const parked = opts.hasEngineSensor && !moving[k - 1] && !points[k - 1]!.engineOn;
    still[k] = (!moving[k - 1] && !moving[k]) || ((slow || parked) && gapMs > Math.min(minStopMs, GAP_MS)) || (gapMs > minStopMs && gapMs >= STOP_GAP_MS);
  }
  return {
    points,
    stepKm,
    moving,
    still,
    engineMs: engineSteps(points, opts.engineHoursAt),
    fuelUsed: fuelSteps(points, moving, opts.fuel),
    driverKey: driverKeys(points, opts.driverKeyAt),
  };
}

/**
 * The sums of the fixes `first..last` and the steps between them. A stop's top speed
 * counts only its standing fixes: a stop found in a gap with no data starts and ends at
 * the moving fixes around the gap.
 */
export function groupStats(t: TrackFacts, first: number, last: number, stop: boolean): GroupStats {
  const startMs = t.points[first]!.fixTime;
  const endMs = t.points[last]!.fixTime;
  let distanceKm = 0;
  let topSpeedKmh = 0;
  let engineWorkMs = 0;
  let engineIdleMs = 0;
  let fuel = 0;
  let driverKey: string | null = null;
  for (let i = first; i <= last; i++) {
    const p = t.points[i]!;
    if ((!stop || !t.moving[i]) && p.speedKmh > topSpeedKmh) topSpeedKmh = p.speedKmh;
    driverKey ??= t.driverKey[i]!;
    if (i === first) continue;
    distanceKm += t.stepKm[i]!;
    if (t.still[i]) engineIdleMs += t.engineMs[i]!;
    else engineWorkMs += t.engineMs[i]!;
    fuel += t.fuelUsed[i]!;
  }
  const durationMs = endMs - startMs;
  return {
    startMs,
    endMs,
    durationMs,
    distanceKm,
    topSpeedKmh,
    averageSpeedKmh: durationMs > 0 ? distanceKm / (durationMs / 3_600_000) : 0,
    engineWorkMs,
    engineIdleMs,
    engineHoursMs: engineWorkMs + engineIdleMs,
    fuelConsumed: Math.max(0, fuel),
    driverKey,
  };
}
