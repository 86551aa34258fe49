import { describe, expect, it } from "vitest";
import { DeviceDirectory, type DeviceInfo, type DeviceSource } from "./device-directory.js";

/** A records store in memory: what the directory reads, and what changed since when. */
class Records implements DeviceSource {
  devices = new Map<number, DeviceInfo & { removed: boolean; at: number }>();
  lookups = 0;
  /** Devices handed out by changedSince, over all syncs. */
  read = 0;
  private clock = 1_000_000;
  put(d: DeviceInfo, removed = false) {
    this.devices.set(d.id, { ...d, removed, at: (this.clock += 10_000) });
  }
  async findByImei(imei: string) {
    this.lookups++;
    return [...this.devices.values()].find((d) => d.imei === imei && !d.removed);
  }
  async changedSince(since: Date) {
    const devices = [...this.devices.values()].filter((d) => d.at >= since.getTime()).sort((a, b) => a.at - b.at);
    this.read += devices.length;
    // Time passes between syncs: the store's clock is past every stamp and the overlap.
    this.clock += 60_000;
    return { devices, readAt: new Date(this.clock) };
  }
}

const dev = (id: number, imei: string): DeviceInfo => ({ id, imei, userIds: [1], minMovingSpeed: 6 });

describe("DeviceDirectory", () => {
  it("finds a device added after the last sync at once, and asks for an unknown IMEI once per sync", async () => {
    const records = new Records();
    const dir = new DeviceDirectory(records);
    await dir.sync();
    records.put(dev(1, "a"));
    expect((await dir.resolve(["a"])).get("a")?.id).toBe(1);
    await dir.resolve(["zzz"]);
    await dir.resolve(["zzz"]);
    expect(records.lookups).toBe(2);
    await dir.sync();
    await dir.resolve(["zzz"]);
    expect(records.lookups).toBe(3);
  });

  it("reads a fleet added in one burst once, not again on every sync", async () => {
    const records = new Records();
    const dir = new DeviceDirectory(records);
    for (let i = 1; i <= 3; i++) records.put(dev(i, `burst-${i}`));
    await dir.sync();
    await dir.sync();
    await dir.sync();
    expect(records.read).toBe(3);
    expect((await dir.resolve(["burst-2"])).get("burst-2")?.id).toBe(2);
    expect(records.lookups).toBe(0);
  });

  it("follows an IMEI change, a removal, and an IMEI taken over by a new device", async () => {
    const records = new Records();
    const dir = new DeviceDirectory(records);
    records.put(dev(1, "a"));
    await dir.sync();
    records.put(dev(1, "b"));
    await dir.sync();
    expect([...(await dir.resolve(["a", "b"])).entries()].map(([imei, d]) => [imei, d.id])).toEqual([["b", 1]]);
    records.put(dev(1, "b"), true);
    records.put(dev(2, "b"));
    await dir.sync();
    expect((await dir.resolve(["b"])).get("b")?.id).toBe(2);
    records.put(dev(2, "b"), true);
    await dir.sync();
    records.lookups = 0;
    expect((await dir.resolve(["b"])).size).toBe(0);
    // Removed: not in the cache, so the store was asked (and said no).
    expect(records.lookups).toBe(1);
  });

  it("picks up a change of engine detection (a sensor edit moves the device's updated_at)", async () => {
    const records = new Records();
    const dir = new DeviceDirectory(records);
    records.put(dev(1, "a"));
    await dir.sync();
    expect((await dir.resolve(["a"])).get("a")).toMatchObject({ engineSensor: undefined });
    const engineSensor = { type: "acc" as const, tagName: "io1", onValue: "1", offValue: "0" };
    records.put({ ...dev(1, "a"), detectEngine: "acc", engineSensor });
    await dir.sync();
    const d = (await dir.resolve(["a"])).get("a");
    expect(d).toEqual({ id: 1, imei: "a", userIds: [1], minMovingSpeed: 6, detectEngine: "acc", engineSensor });
  });
});
