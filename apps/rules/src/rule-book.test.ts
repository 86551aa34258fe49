import { describe, expect, it } from "vitest";
import type { Alert, RuleRecords, User } from "@fleet/db";
import { ruleBook } from "./rule-book.js";

/** Records in which user 7 watches device 1 with an sos alert; device 2 has no alert. */
function records(ids: readonly number[]): RuleRecords {
  const device = (id: number) => ({ id, name: `Truck ${id}` }) as RuleRecords["devices"][number];
  const alert = { id: 1, userId: 7, name: "sos", type: "sos", active: true, attributes: {}, zone: 0, zones: [], geofences: [], drivers: [], eventsCustom: [], schedule: false, schedules: {}, notifications: {} } as unknown as Alert;
  const user = { id: 7, timezoneId: 0, dst: null, unitOfDistance: "km", unitOfAltitude: "mt", lang: "en" } as unknown as User;
  return { devices: ids.map(device), sensors: [], alerts: ids.includes(1) ? [alert] : [], watches: ids.includes(1) ? [{ alertId: 1, deviceId: 1, activeFrom: null, activeTo: null }] : [], users: [user], geofences: [], customEvents: [], drivers: [] };
}

function countingLoader() {
  const loads: number[][] = [];
  return { loads, load: async (ids: readonly number[]) => (loads.push([...ids]), records(ids)) };
}

const seen = (deviceId: number, userIds = [7]) => ({ deviceId, userIds });

describe("the rule book", () => {
  it("reads the devices it does not keep in one load, and keeps devices without alerts too, so their positions cost no query", async () => {
    const { loads, load } = countingLoader();
    const book = ruleBook(load);
    expect([...(await book.of([seen(1), seen(2)])).keys()]).toEqual([1]);
    expect([...(await book.of([seen(1), seen(2)])).keys()]).toEqual([1]);
    expect(loads).toEqual([[1, 2]]);
  });

  it("drops the devices a notice names, and every device seen by a user it names, alerts or not", async () => {
    const { loads, load } = countingLoader();
    const book = ruleBook(load);
    await book.of([seen(1), seen(2), seen(3, [8])]);
    book.changed({ userIds: [], deviceIds: [3] });
    await book.of([seen(3, [8])]);
    // A new alert of user 7 may watch device 2, which had none: the notice names only the user.
    book.changed({ userIds: [7], deviceIds: [] });
    await book.of([seen(1), seen(2), seen(3, [8])]);
    expect(loads).toEqual([[1, 2, 3], [3], [1, 2]]);
  });

  it("does not keep a load that a notice overtook, and reloads what is older than its age limit", async () => {
    let release: () => void = () => undefined;
    const loads: number[][] = [];
    let now = 0;
    const book = ruleBook(
      async (ids) => {
        loads.push([...ids]);
        if (loads.length === 1) await new Promise<void>((r) => (release = r));
        return records(ids);
      },
      { maxAgeMs: 1000, now: () => now },
    );
    const first = book.of([seen(1)]);
    await new Promise((r) => setImmediate(r));
    book.changed({ userIds: [7], deviceIds: [] });
    release();
    expect([...(await first).keys()]).toEqual([1]);
    await book.of([seen(1)]);
    await book.of([seen(1)]);
    now = 1500;
    await book.of([seen(1)]);
    expect(loads).toEqual([[1], [1], [1]]);
  });
});
