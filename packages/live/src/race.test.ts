import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { LiveState } from "@fleet/contracts";
import { hasService, redisTest } from "@fleet/testkit";
import { describe, expect, it } from "vitest";
import { createMemoryLive, createRedisLive, type LiveStore } from "./index.js";

/*
 * The changed-since contract under a race: a writer puts states as fast as it can while
 * pollers chain `changedSince` the way clients do (each from the previous answer's `now`,
 * one in whole seconds as get_devices_latest's `time`, one to the millisecond). After each
 * poll, every write that had finished before the poll began must be known to the poller:
 * the device listed with that write's state or a newer one. LIVE_RACE_MS sets how long
 * (a minute by default).
 */
const RACE_MS = Number(process.env.LIVE_RACE_MS ?? 60_000);
const USER = 7;
const DEVICES = 40;

interface Write {
  deviceId: number;
  seq: number;
  /** Local clock when putStates resolved. */
  doneAt: number;
}

function state(deviceId: number, seq: number): LiveState {
  const now = Date.now();
  return {
    deviceId, positionId: seq, uniqueId: `race-${deviceId}`, protocol: "osmand", latitude: 54, longitude: 25, altitude: 0, course: 0, speedKmh: 10,
    fixTime: now, serverTime: now, attributes: {}, movedAt: now, odometerKm: 0, tail: [],
  };
}

/** A client's view: the newest seq it has seen per device, built only from what its polls listed. */
class Poller {
  readonly known = new Map<number, number>();
  misses: string[] = [];
  polls = 0;
  listed = 0;
  private since = 0;
  constructor(
    private readonly store: LiveStore,
    private readonly toSince: (now: number) => number,
  ) {}

  /** One poll; then checks every write finished before it began. */
  async poll(writes: Write[], checkedUpTo: { i: number }) {
    const startedAt = Date.now();
    const { deviceIds, now } = await this.store.changedSince(USER, this.since);
    const states = await this.store.getStates(deviceIds);
    for (const [id, s] of states) this.known.set(id, Math.max(this.known.get(id) ?? 0, s.positionId));
    this.since = this.toSince(now);
    this.polls++;
    this.listed += deviceIds.length;
    while (checkedUpTo.i < writes.length && writes[checkedUpTo.i]!.doneAt < startedAt) {
      const w = writes[checkedUpTo.i++]!;
      if ((this.known.get(w.deviceId) ?? 0) < w.seq) this.misses.push(`device ${w.deviceId} seq ${w.seq} (known ${this.known.get(w.deviceId)})`);
    }
  }
}

async function race(writer: LiveStore, reader: LiveStore) {
  const writes: Write[] = [];
  const pollers = [
    { p: new Poller(reader, (now) => Math.floor(now / 1000) * 1000), checked: { i: 0 } },
    { p: new Poller(reader, (now) => now), checked: { i: 0 } },
  ];
  const until = Date.now() + RACE_MS;
  let seq = 0;
  const writing = (async () => {
    while (Date.now() < until) {
      // One to a few devices per write, as a tracker batch would.
      const batch = Array.from({ length: 1 + (seq % 3) }, () => state(1 + Math.floor(Math.random() * DEVICES), ++seq));
      await writer.putStates(batch.map((s) => ({ state: s, userIds: [USER] })));
      const doneAt = Date.now();
      for (const s of batch) writes.push({ deviceId: s.deviceId, seq: s.positionId, doneAt });
      await yieldToLoop();
    }
  })();
  const polling = pollers.map(async ({ p, checked }) => {
    while (Date.now() < until) {
      await p.poll(writes, checked);
      await yieldToLoop();
    }
  });
  await Promise.all([writing, ...polling]);
  // One more poll each, after the last write: it must bring every poller up to date.
  await new Promise((r) => setTimeout(r, 2));
  for (const { p, checked } of pollers) await p.poll(writes, checked);
  return { writes, pollers: pollers.map(({ p, checked }) => ({ p, checked: checked.i })) };
}

function expectNothingMissed(result: Awaited<ReturnType<typeof race>>) {
  const { writes, pollers } = result;
  expect(writes.length).toBeGreaterThan(100);
  for (const { p, checked } of pollers) {
    // Every write was checked against a poll that began after it, and none was missing.
    expect(checked).toBe(writes.length);
    expect(p.polls).toBeGreaterThan(10);
    expect(p.misses.slice(0, 5)).toEqual([]);
  }
  console.log(`[race] ${writes.length} writes, polls ${pollers.map(({ p }) => `${p.polls} (listed ${p.listed})`).join(", ")}`);
}

describe.concurrent("changed-since under a writer and a poller racing", () => {
  it("memory: every change is observed by the next poll", { timeout: RACE_MS + 30_000 }, async () => {
    const store = createMemoryLive();
    try {
      expectNothingMissed(await race(store, store));
    } finally {
      await store.close();
    }
  });

  // Skips when no Redis answers on the test URL (global setup prints why; in CI the run fails instead).
  it.runIf(hasService("redis"))("redis: every change is observed by the next poll (writer and poller on separate connections)", { timeout: RACE_MS + 30_000 }, async () => {
    const t = redisTest("race");
    const writer = createRedisLive({ url: t.url, keyPrefix: t.keyPrefix });
    const reader = createRedisLive({ url: t.url, keyPrefix: t.keyPrefix });
    try {
      expectNothingMissed(await race(writer, reader));
    } finally {
      await Promise.all([writer.close(), reader.close()]);
      await t.cleanup();
    }
  });
});
