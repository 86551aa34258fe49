import type { HistoryRow } from "@fleet/contracts";
import { distanceKm, GPS_JUMP_KMH } from "@fleet/geo";

const byTime = (a: HistoryRow, b: HistoryRow) => a.fixTime - b.fixTime || a.id - b.id;

/**
 * The fixes in time order (then by id), one per instant: of positions with the same fix time
 * (a position written twice, or two of one instant) the lowest id is kept. The history store
 * already answers in order; this also holds for rows from anywhere else.
 */
export function orderedFixes<R extends HistoryRow>(rows: readonly R[]): R[] {
  let sorted = true;
  for (let i = 1; i < rows.length && sorted; i++) sorted = byTime(rows[i - 1]!, rows[i]!) <= 0;
  const inOrder = sorted ? rows : [...rows].sort(byTime);
  const out: R[] = [];
  let last = Number.NaN;
  for (const row of inOrder) {
    if (row.fixTime === last) continue;
    last = row.fixTime;
    out.push(row);
  }
  return out;
}

const between = (a: HistoryRow, b: HistoryRow) => distanceKm({ lat: a.latitude, lng: a.longitude }, { lat: b.latitude, lng: b.longitude });

/**
 * km between each fix and the one before it in `points`. Measured again rather than taken
 * from the rows' `distanceKm`: the tracker measured a late fix from the fix before it, but
 * left the fix after it measured from the one before the late fix, so the stored steps
 * overlap once positions arrived out of order. The same haversine as the tracker's, so a
 * track that arrived in order sums to the same distance.
 *
 * A GPS spike adds nothing: a fix reached faster than GPS_JUMP_KMH and left as fast, between
 * steps that are not, is a fix out and back that the device never drove. Its step counts 0 km
 * and the step after it the distance from the fix before it (history-engine's cut does the same).
 */
export function stepDistances(points: readonly HistoryRow[]): number[] {
  const n = points.length;
  const out = new Array<number>(n);
  if (n > 0) out[0] = 0;
  for (let i = 1; i < n; i++) out[i] = between(points[i - 1]!, points[i]!);
  const fast = (k: number) => k >= 1 && k < n && out[k]! * 3_600_000 > GPS_JUMP_KMH * (points[k]!.fixTime - points[k - 1]!.fixTime);
  const spikes: number[] = [];
  for (let i = 1; i < n - 1; i++) if (fast(i) && fast(i + 1) && !fast(i - 1) && !fast(i + 2)) spikes.push(i);
  for (const i of spikes) {
    out[i] = 0;
    out[i + 1] = between(points[i - 1]!, points[i + 1]!);
  }
  return out;
}

/** Every row in time order (then by id), positions of one instant included: what lists them all shows. */
export function rowsInOrder<R extends HistoryRow>(rows: readonly R[]): R[] {
  return [...rows].sort(byTime);
}

/**
 * The km of each row's step, by row id, as the track measures it (stepDistances over its
 * fixes: one per instant, GPS spikes measured across): from the fix before it among `rows`,
 * 0 for the first and for another position of the same instant. So a list of every row adds
 * up to the track's distance.
 */
export function stepsByRow(rows: readonly HistoryRow[]): Map<number, number> {
  const fixes = orderedFixes(rows);
  const km = stepDistances(fixes);
  return new Map(fixes.map((f, i) => [f.id, km[i]!]));
}
