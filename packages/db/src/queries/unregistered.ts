import { asc, desc, sql } from "drizzle-orm";
import type { Queryable } from "../client.js";
import { unregisteredDevices, type UnregisteredDevice } from "../schema/unregistered-devices.js";

export interface UnregisteredSighting {
  uniqueId: string;
  protocol: string;
  seenAt: Date;
  count: number;
}

/**
 * Records sightings of unknown trackers in one upsert: counts add up, last_seen only moves
 * forward, first_seen only backward, and protocol follows the latest sighting.
 */
export async function recordUnregistered(db: Queryable, entries: readonly UnregisteredSighting[]): Promise<void> {
  // One row per uniqueId: Postgres refuses an upsert that touches the same row twice.
  const merged = new Map<string, typeof unregisteredDevices.$inferInsert>();
  for (const e of entries) {
    const row = merged.get(e.uniqueId);
    if (!row) {
      merged.set(e.uniqueId, { uniqueId: e.uniqueId, protocol: e.protocol, firstSeen: e.seenAt, lastSeen: e.seenAt, count: e.count });
      continue;
    }
    row.count = (row.count ?? 0) + e.count;
    if (e.seenAt < row.firstSeen) row.firstSeen = e.seenAt;
    if (e.seenAt >= row.lastSeen) [row.lastSeen, row.protocol] = [e.seenAt, e.protocol];
  }
  if (merged.size === 0) return;
  // Sorted so concurrent batches from several trackers lock rows in the same order and
  // cannot deadlock each other.
  const rows = [...merged.values()].sort((a, b) => (a.uniqueId < b.uniqueId ? -1 : a.uniqueId > b.uniqueId ? 1 : 0));
  const t = unregisteredDevices;
  await db
    .insert(t)
    .values(rows)
    .onConflictDoUpdate({
      target: t.uniqueId,
      set: {
        count: sql`${t.count} + excluded.count`,
        firstSeen: sql`least(${t.firstSeen}, excluded.first_seen)`,
        lastSeen: sql`greatest(${t.lastSeen}, excluded.last_seen)`,
        protocol: sql`case when excluded.last_seen >= ${t.lastSeen} then excluded.protocol else ${t.protocol} end`,
      },
    });
}

/** All unknown trackers, most recently seen first. */
export function listUnregistered(db: Queryable): Promise<UnregisteredDevice[]> {
  return db
    .select()
    .from(unregisteredDevices)
    .orderBy(desc(unregisteredDevices.lastSeen), asc(unregisteredDevices.uniqueId));
}
