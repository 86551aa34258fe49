import type { TailPoint } from "@fleet/contracts";

/**
 * Whether `p` is a fix its device sent again: the same fix time and place as a point of the
 * device's tail, under another id. Devices resend a fix whose answer they missed, and each
 * copy was a row of its own in history, its messages and its exports (Traccar's
 * filter.duplicate drops them likewise). A replay of the same message keeps its id, so it is
 * not one: it writes its row again, as exactly-once needs. A resend older than the whole tail
 * is not caught.
 */
export function isResent(tail: readonly TailPoint[], p: TailPoint): boolean {
  for (const t of tail) if (t.fixTime === p.fixTime && t.id !== p.id && t.latitude === p.latitude && t.longitude === p.longitude) return true;
  return false;
}
