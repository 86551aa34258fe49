import { listDevicesChangedSince, type Db } from "@fleet/db";
import type { HistoryStore } from "@fleet/history";
import type { LiveStore } from "@fleet/live";

/**
 * The embedded live store comes back from live.json, written every 10 s and at a clean stop.
 * After a crash a device whose history holds fixes newer than its snapshot would show a stale
 * position, and its odometer would miss the fixes in between for good (a probe's device lost
 * 117 km). Before the tracker starts, such a state is rebuilt from history, as a lost one is
 * (odometer, engine time and tail from the stored fixes). Resolves with how many were. Only
 * devices whose latest stored fix is newer than their state have their history read.
 */
export async function catchUpLiveStates(db: Db, live: LiveStore, history: HistoryStore): Promise<number> {
  const devices = (await listDevicesChangedSince(db, new Date(0))).filter((d) => !d.deleted);
  const states = await live.getStates(devices.map((d) => d.id));
  const kept = devices.filter((d) => states.has(d.id));
  if (kept.length === 0) return 0;
  const latest = await history.latestFixTimes(kept.map((d) => d.id));
  const behind = kept.filter((d) => (latest.get(d.id) ?? -Infinity) > states.get(d.id)!.fixTime);
  if (behind.length === 0) return 0;
  const fromHistory = await history.lastStates(behind.map((d) => ({ id: d.id, minMovingSpeed: Number(d.minMovingSpeed) })));
  const stale = behind.filter((d) => {
    const restored = fromHistory.get(d.id);
    return restored !== undefined && restored.fixTime > states.get(d.id)!.fixTime;
  });
  if (stale.length === 0) return 0;
  await live.deleteStates(stale.map((d) => d.id));
  await live.restoreStates(stale.map((d) => ({ state: fromHistory.get(d.id)!, userIds: d.userIds })));
  return stale.length;
}
