import type { TailPoint } from "@fleet/contracts";

/**
 * Whether `p` is a fix its device sent again: its predecessor in (fix time, id) order, from the
 * tail or from history, is the same fix (time and place) under another id. Devices resend a fix
 * whose answer they missed, or their whole buffer, and each copy was a row of its own in
 * history, its messages and its exports (Traccar's filter.duplicate drops them likewise). A copy
 * comes later than the fix, so under a higher id, and the fix is just before it. A replay of
 * the same message keeps its id, so it is not one: it writes its row again, as exactly-once
 * needs.
 */
export function isResent(prev: TailPoint | undefined, p: TailPoint): boolean {
  return prev !== undefined && prev.id !== p.id && prev.fixTime === p.fixTime && prev.latitude === p.latitude && prev.longitude === p.longitude;
}
