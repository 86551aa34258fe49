import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevice, createUser, listEventNotifications, openDb, recordEvents, type DbHandle, type NotificationRow } from "@fleet/db";
import { tempPglite } from "@fleet/testkit";
import { startDispatcher } from "./dispatcher.js";

const DAY = 86_400_000;
const quiet = { info: () => undefined, warn: () => undefined };

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
    const user = await createUser(db, { email: "retention@test.local", password: "secret-1" });
    const device = await createDevice(db, user.id, { name: "Van", imei: "retention-imei" });
    const event = (key: string) => ({ userId: user.id, deviceId: device.id, type: "sos" as const, message: "SOS", time: new Date(), latitude: 54.7, longitude: 25.3, dedupeKey: key });
    const [delivered, stuck] = await recordEvents(db, [event("delivered"), event("stuck")], () => [{ channel: "webhook", payload: { url: "https://hooks.example.com/x" } }]);
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
});
