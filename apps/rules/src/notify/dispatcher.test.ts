import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlert, createDevice, createUser, destroyAlert, listEventNotifications, openDb, recordEvents, setUserActive, type DbHandle, type NotificationRow } from "@fleet/db";
import { tempPglite, waitFor } from "@fleet/testkit";
import { alertValues } from "../../test/fixture.js";
import { startDispatcher } from "./dispatcher.js";

const DAY = 86_400_000;
const quiet = { info: () => undefined, warn: () => undefined };
/** Every event's notification: one webhook. */
const hook = () => [{ channel: "webhook" as const, payload: { url: "https://hooks.example.com/x" } }];

/** A user (by `name`) with a van and an sos alert on it; `event(key, alert?)` is an sos of that van. */
async function sosAccount(db: DbHandle["db"], name: string) {
  const user = await createUser(db, { email: `${name}@test.local`, password: "secret-1" });
  const device = await createDevice(db, user.id, { name: "Van", imei: `${name}-imei` });
  const newAlert = () => createAlert(db, user.id, alertValues({ type: "sos", devices: [device.id] }));
  const alertId = await newAlert();
  const event = (key: string, alert = alertId) => ({ userId: user.id, deviceId: device.id, alertId: alert, type: "sos" as const, message: "SOS", time: new Date(), latitude: 54.7, longitude: 25.3, dedupeKey: key });
  return { user, device, alertId, newAlert, event };
}

describe("the notification dispatcher's retention", () => {
  let store: Awaited<ReturnType<typeof tempPglite>>;
  let handle: DbHandle;
  beforeAll(async () => {
    store = await tempPglite();
    handle = await openDb({ dataDir: store.dataDir });
    await handle.migrate();
  });
  afterAll(async () => {
    await handle.close();
    await store.cleanup();
  });

  it("deletes a delivered notification once it is older than the retention, and keeps a pending one", async () => {
    const db = handle.db;
    const { event } = await sosAccount(db, "retention");
    const [delivered, stuck] = await recordEvents(db, [event("delivered"), event("stuck")], hook);
    const sent: number[] = [];
    let clock = Date.now();
    const dispatcher = startDispatcher({
      db,
      // The webhook channel as the dispatcher calls it: one event's delivery works, the other's does not yet.
      channels: {
        webhook: async (row: NotificationRow) => {
          if (row.eventId === stuck!.id) throw new Error("no answer");
          sent.push(row.eventId);
        },
      },
      logger: quiet,
      everyMs: 3_600_000,
      pruneEveryMs: 3_600_000,
      retentionMs: 30 * DAY,
      giveUpAfterMs: 365 * DAY,
      now: () => clock,
    });
    try {
      expect(await dispatcher.tick()).toBe(2);
      expect(sent).toEqual([delivered!.id]);
      clock += 29 * DAY;
      expect(await dispatcher.prune()).toBe(0);
      clock += 2 * DAY;
      expect(await dispatcher.prune()).toBe(1);
      const left = await listEventNotifications(db, [delivered!.id, stuck!.id]);
      expect(left.map((n) => [n.eventId, n.status])).toEqual([[stuck!.id, "pending"]]);
    } finally {
      await dispatcher.close();
    }
  });

  it("delivers each notification on its own: a slow one holds back no other, and one of a deleted alert is not sent", async () => {
    const db = handle.db;
    const { user, alertId: slowAlert, newAlert, event } = await sosAccount(db, "in-flight");
    const [fastAlert, deletedAlert] = [await newAlert(), await newAlert()];
    const [slow] = await recordEvents(db, [event("slow", slowAlert)], hook);
    const sent: number[] = [];
    let release = () => undefined as void;
    const slowAnswer = new Promise<void>((resolve) => (release = resolve));
    const dispatcher = startDispatcher({
      db,
      channels: {
        webhook: async (row: NotificationRow) => {
          if (row.eventId === slow!.id) await slowAnswer;
          sent.push(row.eventId);
        },
      },
      logger: quiet,
      everyMs: 20,
    });
    try {
      await waitFor("the slow one under way", async () => (await listEventNotifications(db, [slow!.id]))[0]!.attempts === 1, 5000, 10);
      const [fast, orphan] = await recordEvents(db, [event("fast", fastAlert), event("orphan", deletedAlert)], hook);
      expect(await destroyAlert(db, user.id, deletedAlert)).toBe(true);
      await waitFor("the fast one delivered", async () => sent.includes(fast!.id), 5000, 10);
      await waitFor("the deleted alert's one given up", async () => (await listEventNotifications(db, [orphan!.id]))[0]!.status === "failed", 5000, 10);
      expect(sent).toEqual([fast!.id]);
      expect((await listEventNotifications(db, [orphan!.id]))[0]!.lastError).toBe("the alert or service was deleted");
      release();
      await waitFor("the slow one delivered", async () => sent.includes(slow!.id), 5000, 10);
    } finally {
      release();
      await dispatcher.close();
    }
  });

  it("gives up a queued notification once its owner may no longer sign in, and sends the next one after it is let in again", async () => {
    const db = handle.db;
    const { user, event } = await sosAccount(db, "shut-out");
    const sent: number[] = [];
    // Queued while the owner could sign in, taken after an administrator shut it out.
    const [queued] = await recordEvents(db, [event("queued")], hook);
    await setUserActive(db, { id: user.id }, false);
    const dispatcher = startDispatcher({ db, channels: { webhook: async (row: NotificationRow) => void sent.push(row.eventId) }, logger: quiet, everyMs: 20 });
    try {
      await waitFor("the shut-out owner's one given up", async () => (await listEventNotifications(db, [queued!.id]))[0]!.status === "failed", 5000, 10);
      expect((await listEventNotifications(db, [queued!.id]))[0]!.lastError).toBe("the account may not sign in (deactivated or expired)");
      await setUserActive(db, { id: user.id }, true);
      const [later] = await recordEvents(db, [event("later")], hook);
      await waitFor("the next one delivered", async () => sent.includes(later!.id), 5000, 10);
      expect(sent).toEqual([later!.id]);
    } finally {
      await dispatcher.close();
    }
  });
});
