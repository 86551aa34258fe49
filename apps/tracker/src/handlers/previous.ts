import { TAIL_MAX, type TailPoint } from "@fleet/contracts";
import { before, type Ordered } from "../position/order.js";

/**
 * The known point just before `p` in time (never `p` itself), among the device's tail
 * and the point handled just before it in this batch: the same answer on a replay.
 * The tail holds the device's most recent points, so any point between its oldest and
 * `p` is in it. When `p` is older than a full tail, the answer is not known here
 * (`known: false`) and the caller asks history.
 */
export function previousPoint(tail: readonly TailPoint[], inBatch: TailPoint | undefined, p: Ordered): { prev: TailPoint | undefined; known: boolean } {
  let prev: TailPoint | undefined;
  for (const t of tail) if (t.id !== p.id && before(t, p) && (!prev || before(prev, t))) prev = t;
  if (inBatch && inBatch.id !== p.id && before(inBatch, p) && (!prev || before(prev, inBatch))) prev = inBatch;
  return { prev, known: prev !== undefined || tail.length < TAIL_MAX };
}
