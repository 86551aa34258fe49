import type { HistoryRow } from "@fleet/contracts";
import { distanceKm } from "@fleet/geo";

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

/**
 * km between each fix and the one before it in `points`. Measured again rather than taken
 * from the rows' `distanceKm`: the tracker measured a late fix from the fix before it, but
 * left the fix after it measured from the one before the late fix, so the stored steps
 * overlap once positions arrived out of order. The same haversine as the tracker's, so a
 * track that arrived in order sums to the same distance.
 */
export function stepDistances(points: readonly HistoryRow[]): number[] {
  const out = new Array<number>(points.length);
  if (points.length > 0) out[0] = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    out[i] = distanceKm({ lat: a.latitude, lng: a.longitude }, { lat: b.latitude, lng: b.longitude });
  }
  return out;
}
