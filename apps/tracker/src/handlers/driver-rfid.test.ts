import { describe, expect, it } from "vitest";
import type { Attributes, EnrichedPosition } from "@fleet/contracts";
import type { DriverSwitch, RfidSighting } from "@fleet/db";
import { DriverRfid, newestSightings } from "./driver-rfid.js";

function position(deviceId: number, fixTime: number, attributes: Attributes, latest = true): EnrichedPosition {
  return {
    id: fixTime,
    deviceId,
    uniqueId: `imei-${deviceId}`,
    protocol: "osmand",
    latitude: 54,
    longitude: 25,
    altitude: 0,
    course: 0,
    speedKmh: 0,
    distanceKm: 0,
    fixTime,
    serverTime: fixTime + 100,
    attributes,
    userIds: [7],
    latest,
    engineOn: false,
    moving: false,
  };
}

/** A DriverRfid over a recording assigner that switches whatever `switches` says. */
function harness(switches: (s: readonly RfidSighting[]) => DriverSwitch[] = () => []) {
  const calls: RfidSighting[][] = [];
  const marked: { deviceId: number; userIds: readonly number[] }[][] = [];
  let clock = 1_000_000;
  const rfid = new DriverRfid(
    async (s) => {
      calls.push([...s]);
      return switches(s);
    },
    { markChanged: async (entries) => void marked.push([...entries]) },
    { rememberMs: 60_000, now: () => clock },
  );
  return { rfid, calls, marked, advance: (ms: number) => (clock += ms) };
}

describe("newestSightings", () => {
  it("keeps the newest RFID per device among its latest positions", () => {
    const sightings = newestSightings([
      position(1, 1000, { rfid: "a" }),
      position(1, 3000, { rfid: "b" }),
      position(1, 4000, {}),
      position(2, 2000, { driveruniqueid: "C" }),
      // Older than what the device had: history only, it says nothing about now.
      position(3, 5000, { rfid: "late" }, false),
    ]);
    expect(sightings).toEqual([
      { deviceId: 1, rfid: "b", fixTime: 3000 },
      { deviceId: 2, rfid: "c", fixTime: 2000 },
    ]);
  });

  it("ignores an older fix that comes after a newer one in the batch", () => {
    expect(newestSightings([position(1, 3000, { rfid: "new" }), position(1, 2000, { rfid: "old" })])).toEqual([{ deviceId: 1, rfid: "new", fixTime: 3000 }]);
  });
});

describe("DriverRfid", () => {
  it("asks once per batch for every device, and marks the devices that switched for their users", async () => {
    const h = harness((s) => s.flatMap((x) => (x.rfid === "known" ? [{ deviceId: x.deviceId, userId: 7 }, { deviceId: x.deviceId, userId: 8 }] : [])));
    await h.rfid.handle([position(1, 1000, { rfid: "known" }), position(2, 1000, { rfid: "stranger" }), position(3, 1000, {})]);
    expect(h.calls).toEqual([
      [
        { deviceId: 1, rfid: "known", fixTime: 1000 },
        { deviceId: 2, rfid: "stranger", fixTime: 1000 },
      ],
    ]);
    expect(h.marked).toEqual([[{ deviceId: 1, userIds: [7, 8] }]]);
  });

  it("costs no query for a device that repeats the RFID just handled, whatever its case", async () => {
    const h = harness();
    await h.rfid.handle([position(1, 1000, { rfid: "card" })]);
    await h.rfid.handle([position(1, 2000, { rfid: "CARD" })]);
    await h.rfid.handle([position(1, 3000, {})]);
    expect(h.calls).toHaveLength(1);
    expect(h.marked).toEqual([]);
  });

  it("asks again when the card changes, and for the same card once the memory has expired", async () => {
    const h = harness();
    await h.rfid.handle([position(1, 1000, { rfid: "a" })]);
    await h.rfid.handle([position(1, 2000, { rfid: "b" })]);
    await h.rfid.handle([position(1, 3000, { rfid: "a" })]);
    expect(h.calls.map((c) => c.map((s) => s.rfid))).toEqual([["a"], ["b"], ["a"]]);
    h.advance(60_000);
    await h.rfid.handle([position(1, 4000, { rfid: "a" })]);
    expect(h.calls).toHaveLength(4);
  });

  it("does not remember an RFID whose assignment failed, so the retried batch asks again", async () => {
    let fail = true;
    const h = harness(() => {
      if (fail) throw new Error("db down");
      return [];
    });
    await expect(h.rfid.handle([position(1, 1000, { rfid: "a" })])).rejects.toThrow("db down");
    fail = false;
    await h.rfid.handle([position(1, 1000, { rfid: "a" })]);
    expect(h.calls).toHaveLength(2);
  });

  it("does nothing for a batch without RFIDs", async () => {
    const h = harness();
    await h.rfid.handle([position(1, 1000, { ignition: true })]);
    await h.rfid.handle([]);
    expect(h.calls).toEqual([]);
  });
});
