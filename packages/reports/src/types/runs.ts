/** A run of consecutive points, by their indexes in the track, both ends included. */
export interface Run {
  first: number;
  last: number;
}

/** The maximal runs of consecutive indexes in `0..count-1` where `holds` is true, in order. */
export function runsWhere(count: number, holds: (i: number) => boolean): Run[] {
  const runs: Run[] = [];
  let first = -1;
  for (let i = 0; i <= count; i++) {
    const now = i < count && holds(i);
    if (now && first < 0) first = i;
    else if (!now && first >= 0) {
      runs.push({ first, last: i - 1 });
      first = -1;
    }
  }
  return runs;
}

/**
 * The maximal runs of consecutive steps where `holds` is true (step k runs from point k - 1 to
 * point k, k ≥ 1), each as the points it spans: from the point its first step leaves to the
 * point its last step reaches.
 */
export function stepRuns(count: number, holds: (k: number) => boolean): Run[] {
  return runsWhere(count, (k) => k > 0 && holds(k)).map((r) => ({ first: r.first - 1, last: r.last }));
}
