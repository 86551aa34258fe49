import type { HistoryRow } from "@fleet/contracts";
import { orderedFixes, stepDistances } from "@fleet/trips";

/**
 * Rows read beside the ones shown, so each row's step is measured as in the whole track: two
 * before (the fix before, and whether it was reached by a jump), two after (whether a fix is
 * left by one).
 */
export const STEP_CONTEXT = 2;

/**
 * The km of each row's step, as get_history measures the track (@fleet/trips' stepDistances over
 * its fixes: one per instant, GPS spikes measured across): from the fix before it among `rows`,
 * 0 for the first and for another position of the same instant. Measured again rather than read
 * from the rows, whose stored step overlaps the next once positions arrived late, so that a
 * period's rows add up to its history's distance.
 */
export function stepsByRow(rows: readonly HistoryRow[]): Map<number, number> {
  const fixes = orderedFixes(rows);
  const km = stepDistances(fixes);
  return new Map(fixes.map((f, i) => [f.id, km[i]!]));
}
