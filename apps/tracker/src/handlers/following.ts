import { TAIL_MAX, type HistoryRow, type TailPoint } from "@fleet/contracts";
import type { HistoryStore } from "@fleet/history";
import { before, type Ordered } from "../position/order.js";

const pointOf = (r: { id: number; fixTime: number; latitude: number; longitude: number }): TailPoint => ({ id: r.id, fixTime: r.fixTime, latitude: r.latitude, longitude: r.longitude });

/** Whether `raw` is older than the device's whole, full tail: only then does the tail not tell the fix after it. */
export const olderThanTail = (tail: readonly TailPoint[], raw: Ordered): boolean => tail.length >= TAIL_MAX && tail[0] !== undefined && before(raw, tail[0]);

/**
 * The fix just after a late one older than the device's whole tail, which the tail no longer
 * tells (a buffer sent after 30 or more live fixes): the earliest after it of the tail's oldest
 * point, the device's fixes handled earlier in this batch (the tail may have dropped them, and
 * history may not hold them yet), and history's next row. One per batch: history is asked once
 * for a run of such fixes, since a buffer sent oldest first has the same next stored row all along.
 */
export class FollowingPoints {
  private readonly handled = new Map<number, TailPoint[]>();
  private readonly asked = new Map<number, { from: Ordered; row: HistoryRow | undefined }>();

  constructor(private readonly history: Pick<HistoryStore, "following">) {}

  /** A fix of the device handled in this batch, which history may not hold yet. */
  add(deviceId: number, point: TailPoint): void {
    const list = this.handled.get(deviceId);
    if (list) list.push(point);
    else this.handled.set(deviceId, [point]);
  }

  /**
   * The point after `raw`, a fix `olderThanTail`; null when history holds `raw` itself (a
   * replay, counted when it first came).
   */
  async after(deviceId: number, tail: readonly TailPoint[], raw: Ordered): Promise<TailPoint | null> {
    const oldest = tail[0]!;
    let kept = this.asked.get(deviceId);
    // Nothing is stored between a point asked about and the row found after it.
    if (!kept || before(raw, kept.from) || (kept.row !== undefined && !before(raw, kept.row))) {
      kept = { from: raw, row: await this.history.following(deviceId, raw) };
      this.asked.set(deviceId, kept);
      if (kept.row?.id === raw.id) return null;
    }
    let next: TailPoint = oldest;
    if (kept.row !== undefined && before(kept.row, next)) next = pointOf(kept.row);
    for (const p of this.handled.get(deviceId) ?? []) if (before(raw, p) && before(p, next)) next = p;
    return next;
  }
}
