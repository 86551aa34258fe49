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
