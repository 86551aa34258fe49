import { groupByDevice, listSensorsOfDevices, listServicesToCheck, markServiceNotified, recordEvents, type Db } from "@fleet/db";
import type { LiveStore } from "@fleet/live";
import { startLeasedTimer, type LeasedTimer } from "../leased-timer.js";
import { dueReminders } from "./due.js";

export interface RemindersOptions {
  db: Db;
  live: Pick<LiveStore, "getStates" | "claim">;
  everyMs: number;
  now?: () => number;
  logger: { warn(obj: object, msg?: string): void };
}

/** The live store's lease the instances' timers take, so one of them looks at the services in each period. */
export const REMIND_LEASE = "rules:reminders";
/** Services looked at per query: a page's devices' states and sensors are read in one go each. */
const PAGE = 500;

/**
 * Looks, every `everyMs`, at the maintenance services whose reminder may be due (due.ts) and
 * records each due one as an event with its notifications, then marks the service reminded
 * for that cycle. Recording first and by key: a run that dies before marking is repeated by
 * the next one, which records nothing new and marks. Resolves with the events recorded.
 */
export function startReminders(opts: RemindersOptions): LeasedTimer {
  const now = opts.now ?? Date.now;

  async function remindOnce(): Promise<number> {
    let recorded = 0;
    for (let afterId = 0; ; ) {
      const page = await listServicesToCheck(opts.db, { afterId, limit: PAGE });
      if (page.length === 0) return recorded;
      afterId = page.at(-1)!.service.id;
      const ids = [...new Set(page.map((c) => c.device.id))];
      const [states, sensors] = await Promise.all([opts.live.getStates(ids), listSensorsOfDevices(opts.db, ids)]);
      const due = dueReminders(page, states, groupByDevice(sensors), now());
      if (due.length > 0) {
        const notifications = new Map(due.map((d) => [`${d.event.userId}:${d.event.dedupeKey}`, d.notifications]));
        const inserted = await recordEvents(
          opts.db,
          due.map((d) => d.event),
          (e) => notifications.get(`${e.userId}:${e.dedupeKey}`) ?? [],
        );
        recorded += inserted.length;
        for (const d of due) await markServiceNotified(opts.db, d.check.service.id, d.cycle, d.check.service.updatedAt);
      }
      if (page.length < PAGE) return recorded;
    }
  }

  return startLeasedTimer({ live: opts.live, lease: REMIND_LEASE, everyMs: opts.everyMs, logger: opts.logger, what: "the look at maintenance services" }, remindOnce);
}
