import type { TailPoint } from "@fleet/contracts";

/**
 * What the store's copy of a device's tail must do to become the new tail: take the new
 * points at its end and keep its last `length` points, or be replaced outright.
 */
export type TailOp = { kind: "append"; points: readonly TailPoint[]; length: number } | { kind: "replace"; points: readonly TailPoint[] };

/**
 * The tail each device's state was last written with, so that the next write sends only
 * the points that came since. A new state's tail is its previous one less the oldest
 * point plus the new one, made of the same point objects (the tracker never changes a
 * point), so matching by identity is exact: any tail not built that way from the last
 * one written here (read back from the store, rebuilt from history, reordered by a late
 * fix) is simply written in full. Forgotten wholesale past `maxDevices`, which only costs
 * each device's next write a full tail.
 */
export class WrittenTails {
  private readonly last = new Map<number, readonly TailPoint[]>();

  constructor(private readonly maxDevices = 200_000) {}

  /** The op that turns the last tail written for `deviceId` into `tail`, which it records as written. */
  next(deviceId: number, tail: readonly TailPoint[]): TailOp {
    const prev = this.last.get(deviceId);
    if (prev === undefined && this.last.size >= this.maxDevices) this.last.clear();
    this.last.set(deviceId, tail);
    const appended = prev === undefined ? -1 : appendedFrom(prev, tail);
    return appended < 0 ? { kind: "replace", points: tail } : { kind: "append", points: tail.slice(tail.length - appended), length: tail.length };
  }

  /** Writes that may not have landed: their devices' next writes send whole tails. */
  forget(deviceIds: Iterable<number>): void {
    for (const id of deviceIds) this.last.delete(id);
  }
}

/** How many points `tail` adds at the end of `prev` less some oldest ones, or -1 if it is not built that way. */
function appendedFrom(prev: readonly TailPoint[], tail: readonly TailPoint[]): number {
  if (tail === prev) return 0;
  if (tail.length === 0) return -1;
  const k = prev.indexOf(tail[0]!);
  if (k < 0) return prev.length === 0 ? tail.length : -1;
  const kept = prev.length - k;
  if (kept > tail.length) return -1;
  for (let i = 1; i < kept; i++) if (tail[i] !== prev[k + i]) return -1;
  return tail.length - kept;
}
