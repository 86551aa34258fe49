import type { HistoryRow } from "@fleet/contracts";

/** One sensor reading: the fix it was read at (an index into the track's points) and its value. */
export interface Reading<V = number> {
  index: number;
  value: V;
}

/** The fixes that read the sensor, in order; a fix without a reading (null) is left out. */
export function readingsOf<V>(points: readonly HistoryRow[], read: (row: HistoryRow) => V | null): Reading<V>[] {
  const out: Reading<V>[] = [];
  points.forEach((p, index) => {
    const value = read(p);
    if (value !== null) out.push({ index, value });
  });
  return out;
}

/**
 * The readings where the value changed, with the first and the last: a level stands until the
 * next change, so these tell all the others do, and a month of fixes every 10 s does not
 * become a quarter of a million rows of the same level.
 */
export const changedReadings = <V>(readings: readonly Reading<V>[]): Reading<V>[] =>
  readings.filter((r, i) => i === 0 || i === readings.length - 1 || r.value !== readings[i - 1]!.value);
