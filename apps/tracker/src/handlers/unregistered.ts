import type { UnregisteredSighting } from "@fleet/db";

/**
 * Counts positions from uniqueIds no device claims, in memory, and hands the totals
 * over in one write per interval: an unregistered device flooding the bus must not
 * cost a records-store write per position. First and last seen are thus accurate to
 * one interval.
 */
export class UnregisteredCounter {
  private pending = new Map<string, UnregisteredSighting>();

  see(uniqueId: string, protocol: string, at: number): void {
    this.merge({ uniqueId, protocol, seenAt: new Date(at), count: 1 });
  }

  private merge(s: UnregisteredSighting): void {
    const cur = this.pending.get(s.uniqueId);
    if (!cur) this.pending.set(s.uniqueId, { ...s });
    else {
      cur.count += s.count;
      cur.protocol = s.protocol;
      if (s.seenAt > cur.seenAt) cur.seenAt = s.seenAt;
    }
  }

  /** Hands over what was counted; on failure the counts go back so nothing is dropped. */
  async flush(write: (entries: UnregisteredSighting[]) => Promise<void>): Promise<void> {
    if (this.pending.size === 0) return;
    const taken = this.pending;
    this.pending = new Map();
    try {
      await write([...taken.values()]);
    } catch (err) {
      for (const s of taken.values()) this.merge(s);
      throw err;
    }
  }
}
