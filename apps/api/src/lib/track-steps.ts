/**
 * Rows read beside the ones shown, so each row's step is measured as in the whole track
 * (@fleet/trips' stepsByRow): two before (the fix before, and whether it was reached by a
 * jump), two after (whether a fix is left by one).
 */
export const STEP_CONTEXT = 2;
