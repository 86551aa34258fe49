import type { HistoryRow } from "@fleet/contracts";
import type { Segmentation } from "@fleet/trips";
import { stepRuns, type Run } from "./runs.js";

/*
 * What the RAG reports (14, 23) hold against a driver, found in the track. Harsh driving is
 * measured as Traccar's BehaviorEventHandler measures it, the speed change between two
 * consecutive fixes over the time between them; Traccar ships no thresholds (0 turns the check
 * off), so these are the usual telematics ones of about 0.25 g speeding up and 0.4 g braking.
 * Over a long step the change is an average: a harsh one may be missed, but one found is real,
 * as no average is above its peak.
 */

/** km/h a second (≈ 2.5 m/s², 0.25 g): speeding up at least this fast is a harsh acceleration. */
export const HARSH_ACCELERATION_KMH_PER_S = 9;
/** km/h a second (≈ 3.9 m/s², 0.4 g): slowing down at least this fast is a harsh braking. */
export const HARSH_BRAKING_KMH_PER_S = 14;

/** How fast the speed changed in step k, km/h a second (fixes have distinct times: the track keeps one per instant). */
function speedChange(track: Segmentation, k: number): number {
  const a = track.points[k - 1]!;
  const b = track.points[k]!;
  return (b.speedKmh - a.speedKmh) / ((b.fixTime - a.fixTime) / 1000);
}

/**
 * The harsh accelerations, or the harsh brakings: each run of consecutive steps changing speed
 * that fast that way, counted once however many fixes it took (as an overspeed is), from the
 * fix it began at to the fix it ended at.
 */
export const harshAccelerations = (track: Segmentation): Run[] => stepRuns(track.points.length, (k) => speedChange(track, k) >= HARSH_ACCELERATION_KMH_PER_S);
export const harshBrakings = (track: Segmentation): Run[] => stepRuns(track.points.length, (k) => -speedChange(track, k) >= HARSH_BRAKING_KMH_PER_S);

/**
 * Whether the seatbelt is fastened, from the `seatbelt` attribute: true or false, or a number
 * (0 unfastened), as a device's digital input comes in. Null when the fix does not say.
 */
export function seatbeltAttribute(row: HistoryRow): boolean | null {
  const value = row.attributes["seatbelt"];
  return typeof value === "boolean" ? value : typeof value === "number" ? value !== 0 : null;
}

/**
 * The seatbelt's state at each fix: the last reading up to it, as devices often report an input
 * only when it changes; null before the first reading. Null throughout means no sensor.
 */
export function seatbeltStates(points: readonly HistoryRow[], read: (row: HistoryRow) => boolean | null): (boolean | null)[] {
  let state: boolean | null = null;
  return points.map((p) => (state = read(p) ?? state));
}

/**
 * Each spell of driving unbelted: consecutive steps with the belt unfastened at both ends and
 * the vehicle moving at either, so pulling away unbelted counts and sitting parked does not.
 */
export function unbeltedRuns(track: Segmentation, states: readonly (boolean | null)[]): Run[] {
  return stepRuns(track.points.length, (k) => states[k - 1] === false && states[k] === false && (track.moving[k - 1]! || track.moving[k]!));
}
