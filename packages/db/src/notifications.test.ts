import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasService, tempPglite, tempPostgresDb, uniqueSuffix } from "@fleet/testkit";
import { openDb, type DbHandle } from "./client.js";
import { createAlert } from "./queries/alerts.js";
import { createDevice } from "./queries/devices.js";
import { pageUserEvents, recordEvents, type EventInput } from "./queries/events.js";
import { createGeofence } from "./queries/geofences.js";
import { claimDueNotifications, finishNotification, listEventNotifications, pruneNotifications, type EventNotification } from "./queries/notifications.js";
import { createUser } from "./queries/users.js";
import { NO_NOTIFICATIONS, type AlertNotifications } from "./schema/alerts.js";

/*
 * An alert's silence ("ignore notifications if repeated in minutes") where notifications are
 * queued: recordEvents records every event, and leaves out the notifications of one whose
 * alert, device, type and geofence already had an event in the silence's minutes before it,
 * recorded earlier or in the same batch. PGlite and, where it answers, PostgreSQL.
 */

const MINUTE = 60_000;

function describeSilence(label: string, open: () => Promise<{ handle: DbHandle; cleanup(): Promise<void> }>): void {
  describe(`alert silence (${label})`, () => {
    let store: { handle: DbHandle; cleanup(): Promise<void> };
    const db = () => store.handle.db;
    const square = [{ lat: 0, lng: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 1 }, { lat: 0, lng: 0 }];
    /** Silence of each alert, in minutes, as the rules service reads it from the alert (payloads.ts). */
    const silences = new Map<number, number>();

    async function fixture() {
      const user = await createUser(db(), { email: `s-${uniqueSuffix()}@example.com`, password: "secret-1" });
      const device = async (name: string) =>
        (await createDevice(db(), user.id, { name, imei: `35${Date.now()}${uniqueSuffix()}`, iconId: 1, fuelMeasurementId: 1, tailLength: 5, minMovingSpeed: 6, minFuelFillings: 10, minFuelThefts: 10 })).id;
      const geofence = async (name: string) => (await createGeofence(db(), user.id, { name, type: "polygon", polygonColor: "#000000", coordinates: square, center: null, radius: null })).id;
      const [van, truck] = [await device("Van"), await device("Truck")];
      const [depot, yard] = [await geofence("Depot"), await geofence("Yard")];
      const alert = async (silent?: AlertNotifications["silent"]) => {
        const notifications: AlertNotifications = { ...NO_NOTIFICATIONS, webhook: { active: true, input: "https://hooks.example.com/fleet" }, ...(silent ? { silent } : {}) };
        const id = await createAlert(db(), user.id, {
          name: "Gate",
          type: "geofence_inout",
          active: true,
          attributes: {},
          zone: 0,
          zones: [],
          geofences: [depot, yard],
          drivers: [],
          eventsCustom: [],
          pois: [],
          schedule: false,
          schedules: {},
          notifications,
          devices: [van, truck],
        });
        if (silent?.active) silences.set(id, silent.input);
        return id;
      };
      return { user: user.id, van, truck, depot, yard, alert };
    }

    const base = Date.UTC(2025, 5, 1, 8);
    const at = (minutes: number) => new Date(base + minutes * MINUTE);
    const event = (userId: number, deviceId: number, alertId: number, minutes: number, overrides: Partial<EventInput> = {}): EventInput => ({
      userId,
      deviceId,
      alertId,
      type: "geofence_in",
      message: "Entered",
      time: at(minutes),
      latitude: 0.5,
      longitude: 0.5,
      dedupeKey: `${alertId}:${deviceId}:${minutes}:${uniqueSuffix()}`,
      ...overrides,
    });
    /** What the rules service queues for an event: a webhook, with the alert's silence when it has one on. */
    const notify = (e: EventInput): EventNotification[] => {
      const minutes = e.alertId == null ? undefined : silences.get(e.alertId);
      return [{ channel: "webhook", payload: { url: "https://hooks.example.com/fleet" }, ...(minutes === undefined ? {} : { silentMinutes: minutes }) }];
    };
    /** Records one batch; for each input event (by message), whether it was recorded and how many notifications it got. */
    async function record(batch: EventInput[]): Promise<Record<string, [boolean, number]>> {
      const inserted = await recordEvents(db(), batch, notify);
      const queued = await listEventNotifications(db(), inserted.map((r) => r.id));
      return Object.fromEntries(
        batch.map((e) => {
          const row = inserted.find((r) => r.dedupeKey === e.dedupeKey);
          return [e.message, [row !== undefined, row ? queued.filter((n) => n.eventId === row.id).length : 0]];
        }),
      );
    }

    beforeAll(async () => {
      store = await open();
      await store.handle.migrate();
    });
    afterAll(async () => {
      await store?.handle.close();
      await store?.cleanup();
    });

    it("prunes notifications done (sent or failed) before a time, in chunks, and never a pending one", async () => {
      const f = await fixture();
      const gate = await f.alert();
      const batch = [0, 1, 2, 3].map((m) => event(f.user, f.van, gate, m, { message: `P${m}` }));
      const inserted = await recordEvents(db(), batch, notify);
      const rows = await listEventNotifications(db(), inserted.map((e) => e.id));
      expect(rows).toHaveLength(4);
      // Taken as a dispatcher takes them: three finish, one is due again later.
      const hourAgo = new Date(Date.now() - 60 * MINUTE);
      const taken = await claimDueNotifications(db(), { limit: 100, leaseMs: 1000 });
      const ours = taken.filter((r) => rows.some((o) => o.id === r.id)).map((r) => r.id).sort((a, b) => a - b);
      expect(ours).toHaveLength(4);
      await finishNotification(db(), ours[0]!, { status: "sent" });
      await finishNotification(db(), ours[1]!, { status: "sent" });
      await finishNotification(db(), ours[2]!, { status: "failed", error: "refused" });
      await finishNotification(db(), ours[3]!, { status: "pending", error: "timeout", retryAt: hourAgo });
      // Nothing done before two hours ago.
      expect(await pruneNotifications(db(), { before: new Date(Date.now() - 120 * MINUTE), limit: 100 })).toBe(0);
      const before = new Date(Date.now() + MINUTE);
      expect(await pruneNotifications(db(), { before, limit: 2 })).toBe(2);
      expect(await pruneNotifications(db(), { before, limit: 2 })).toBe(1);
      expect(await pruneNotifications(db(), { before, limit: 2 })).toBe(0);
      expect((await listEventNotifications(db(), inserted.map((e) => e.id))).map((r) => r.id)).toEqual([ours[3]]);
      // The events stay.
      expect((await pageUserEvents(db(), f.user, {}, { limit: 50, offset: 0 })).rows.map((e) => e.message).sort()).toEqual(["P0", "P1", "P2", "P3"]);
    });

    it("records every event, and notifies a repeat of the same alert, device, type and geofence only once the silence has passed", async () => {
      const f = await fixture();
      const gate = await f.alert({ active: true, input: 10 });
      expect(await record([event(f.user, f.van, gate, 0, { geofenceId: f.depot, message: "first" })])).toEqual({ first: [true, 1] });
      expect(
        await record([
          event(f.user, f.van, gate, 5, { geofenceId: f.depot, message: "repeat after 5 min" }),
          event(f.user, f.van, gate, 5, { geofenceId: f.yard, message: "another geofence" }),
          event(f.user, f.truck, gate, 5, { geofenceId: f.depot, message: "another device" }),
          event(f.user, f.van, gate, 5, { geofenceId: f.depot, type: "geofence_out", message: "another type" }),
        ]),
      ).toEqual({ "repeat after 5 min": [true, 0], "another geofence": [true, 1], "another device": [true, 1], "another type": [true, 1] });
      // The silence counts from the latest event, notified or not: 11 minutes after the repeat.
      expect(await record([event(f.user, f.van, gate, 16, { geofenceId: f.depot, message: "after the silence" })])).toEqual({ "after the silence": [true, 1] });
      // Every event is recorded, silenced or not.
      expect((await pageUserEvents(db(), f.user, {}, { limit: 100, offset: 0 })).total).toBe(6);
    });

    it("notifies an event 15 minutes after the first, and silences one exactly 10 minutes after (the window is [time - N, time))", async () => {
      const f = await fixture();
      const gate = await f.alert({ active: true, input: 10 });
      await record([event(f.user, f.van, gate, 0, { geofenceId: f.depot, message: "first" })]);
      expect(await record([event(f.user, f.van, gate, 15, { geofenceId: f.depot, message: "after 15 min" })])).toEqual({ "after 15 min": [true, 1] });
      expect(await record([event(f.user, f.van, gate, 25, { geofenceId: f.depot, message: "after exactly 10 min" })])).toEqual({ "after exactly 10 min": [true, 0] });
    });

    it("silences a repeat earlier in the same batch (by fix time, whatever the batch's order), matching no geofence with no geofence only", async () => {
      const f = await fixture();
      const sos = await f.alert({ active: true, input: 10 });
      expect(
        await record([
          event(f.user, f.van, sos, 3, { type: "sos", message: "second in time" }),
          event(f.user, f.van, sos, 0, { type: "sos", message: "first in time" }),
          event(f.user, f.van, sos, 2, { type: "sos", geofenceId: f.depot, message: "with a geofence" }),
        ]),
      ).toEqual({ "second in time": [true, 0], "first in time": [true, 1], "with a geofence": [true, 1] });
      // Two events at one instant: neither is before the other.
      expect(await record([event(f.user, f.van, sos, 20, { type: "sos", message: "one" }), event(f.user, f.van, sos, 20, { type: "sos", message: "other" })])).toEqual({ one: [true, 1], other: [true, 1] });
    });

    it("leaves alone alerts without silence or with it off, and other alerts' events", async () => {
      const f = await fixture();
      const [loud, off, silent] = [await f.alert(), await f.alert({ active: false, input: 10 }), await f.alert({ active: true, input: 10 })];
      await record([event(f.user, f.van, loud, 0, { geofenceId: f.depot, message: "loud" }), event(f.user, f.van, off, 0, { geofenceId: f.depot, message: "off" })]);
      expect(
        await record([
          event(f.user, f.van, loud, 1, { geofenceId: f.depot, message: "loud again" }),
          event(f.user, f.van, off, 1, { geofenceId: f.depot, message: "off again" }),
          // The other alerts' events a minute before are not this alert's.
          event(f.user, f.van, silent, 1, { geofenceId: f.depot, message: "silent alert's first" }),
        ]),
      ).toEqual({ "loud again": [true, 1], "off again": [true, 1], "silent alert's first": [true, 1] });
    });

    it("notifies nothing again for a replayed event, silenced or not", async () => {
      const f = await fixture();
      const gate = await f.alert({ active: true, input: 10 });
      const first = event(f.user, f.van, gate, 0, { geofenceId: f.depot, message: "first" });
      await record([first]);
      expect(await record([first, event(f.user, f.van, gate, 30, { geofenceId: f.depot, message: "later" })])).toEqual({ first: [false, 0], later: [true, 1] });
    });
  });
}

describeSilence("pglite", async () => {
  const tmp = await tempPglite();
  return { handle: await openDb({ dataDir: tmp.dataDir }), cleanup: tmp.cleanup };
});

describe.runIf(hasService("postgres"))("postgres", () => {
  describeSilence("postgres", async () => {
    const tmp = await tempPostgresDb();
    return { handle: await openDb({ databaseUrl: tmp.url, dataDir: "unused" }), cleanup: tmp.cleanup };
  });
});
