import { describe, expect, it } from "vitest";
import { createMemoryBus, type BusProducer } from "@fleet/bus";
import { Topics, type RulesChanged } from "@fleet/contracts";
import { IDS_PER_NOTICE, busRulesNotices, noticeMessages, rulesNotices } from "./rules-notices.js";

/** A logger that keeps its warnings. */
function warnings() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, warn: (obj: object, msg: string) => void lines.push({ obj: obj as Record<string, unknown>, msg }) };
}

const failing: BusProducer = { send: () => Promise.reject(new Error("broker down")), close: async () => undefined };
const hanging: BusProducer = { send: () => new Promise<void>(() => undefined), close: async () => undefined };

describe("rules.changed notices", () => {
  it("puts each notice on rules.changed as JSON, ids once each, and sends nothing for an empty one", async () => {
    const bus = createMemoryBus({ partitions: 4 });
    const log = warnings();
    const notices = rulesNotices(busRulesNotices({ producer: await bus.producer() }), log);
    await notices.changed({ userIds: [7, 7] });
    await notices.changed({ deviceIds: [3, 4, 3] });
    await notices.changed({ userIds: [], deviceIds: [] });
    await notices.changed({});
    const sent = (await bus.read(Topics.rulesChanged)).map((m) => JSON.parse(m.value.toString()) as RulesChanged);
    expect(sent).toEqual([
      { userIds: [7], deviceIds: [] },
      { userIds: [], deviceIds: [3, 4] },
    ]);
    expect(log.lines).toEqual([]);
    await bus.close();
  });

  it("answers the write's value after the user's notice, and sends none for a write that failed", async () => {
    const bus = createMemoryBus();
    const notices = rulesNotices(busRulesNotices({ producer: await bus.producer() }), warnings());
    await expect(notices.afterUserWrite(12, Promise.resolve({ id: 5 }))).resolves.toEqual({ id: 5 });
    const refused = new Error("refused");
    await expect(notices.afterUserWrite(13, Promise.reject(refused))).rejects.toBe(refused);
    const sent = (await bus.read(Topics.rulesChanged)).map((m) => JSON.parse(m.value.toString()) as RulesChanged);
    expect(sent).toEqual([{ userIds: [12], deviceIds: [] }]);
    await bus.close();
  });

  it("logs a bus that refuses or does not answer in time, with the ids and the error, and does not throw", async () => {
    for (const producer of [failing, hanging]) {
      const log = warnings();
      const notices = rulesNotices(busRulesNotices({ producer, sendTimeoutMs: 50 }), log);
      await expect(notices.afterUserWrite(21, Promise.resolve("written"))).resolves.toBe("written");
      await expect(notices.changed({ deviceIds: [8] })).resolves.toBeUndefined();
      expect(log.lines.map((l) => ({ ...l.obj, err: String(l.obj.err) }))).toEqual([
        { err: producer === failing ? "Error: broker down" : "Error: the bus did not take the notice within 50 ms", userIds: [21], deviceIds: [], users: 1, devices: 0 },
        { err: producer === failing ? "Error: broker down" : "Error: the bus did not take the notice within 50 ms", userIds: [], deviceIds: [8], users: 0, devices: 1 },
      ]);
      expect(log.lines[0]!.msg).toContain("rules.changed");
    }
  });

  it("sends nothing and logs nothing when the API has no sender", async () => {
    const log = warnings();
    const notices = rulesNotices(undefined, log);
    await expect(notices.afterUserWrite(1, Promise.resolve(1))).resolves.toBe(1);
    expect(log.lines).toEqual([]);
  });

  it("splits a long list of devices over several messages, the users in the first", () => {
    const deviceIds = Array.from({ length: 2 * IDS_PER_NOTICE + 5 }, (_, i) => i + 1);
    const parts = noticeMessages({ userIds: [4], deviceIds }).map((m) => JSON.parse(String(m.value)) as RulesChanged);
    expect(parts.map((p) => [p.userIds, p.deviceIds.length])).toEqual([
      [[4], IDS_PER_NOTICE],
      [[], IDS_PER_NOTICE],
      [[], 5],
    ]);
    expect(parts.flatMap((p) => p.deviceIds)).toEqual(deviceIds);
    expect(noticeMessages({ userIds: [4], deviceIds: [] }).map((m) => JSON.parse(String(m.value)))).toEqual([{ userIds: [4], deviceIds: [] }]);
  });
});
