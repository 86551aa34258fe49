import { describe, expect, it } from "vitest";
import { createBatcher } from "./batcher.js";

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("createBatcher", () => {
  it("groups concurrent adds into one flush after the linger time", async () => {
    const flushed: number[][] = [];
    const b = createBatcher<number>({ maxItems: 100, lingerMs: 5, flush: async (items) => void flushed.push(items) });
    await Promise.all([b.add([1]), b.add([2, 3]), b.add([4])]);
    expect(flushed).toEqual([[1, 2, 3, 4]]);
  });

  it("flushes as soon as maxItems are waiting, without waiting for the linger", async () => {
    const flushed: number[][] = [];
    const b = createBatcher<number>({ maxItems: 3, lingerMs: 60_000, flush: async (items) => void flushed.push(items) });
    await Promise.all([b.add([1, 2]), b.add([3])]);
    expect(flushed).toEqual([[1, 2, 3]]);
  });

  it("settles each caller only when the flush carrying its items settles, and passes failures to exactly those callers", async () => {
    const gates = [deferred(), deferred()];
    let call = 0;
    const b = createBatcher<string>({ maxItems: 2, lingerMs: 1, flush: () => gates[call++]!.promise });
    const first = b.add(["a", "b"]);
    const second = b.add(["c", "d"]);
    let firstDone = false;
    void first.then(() => (firstDone = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(firstDone).toBe(false);
    // One flush at a time by default: the second batch waits for the first.
    expect(call).toBe(1);
    gates[0]!.resolve();
    await first;
    await new Promise((r) => setTimeout(r, 1));
    expect(call).toBe(2);
    gates[1]!.reject(new Error("bus down"));
    await expect(second).rejects.toThrow("bus down");
  });

  it("never splits one caller's items across flushes, even beyond maxItems", async () => {
    const flushed: number[][] = [];
    const b = createBatcher<number>({ maxItems: 2, lingerMs: 1, flush: async (items) => void flushed.push(items) });
    await Promise.all([b.add([1, 2, 3, 4, 5]), b.add([6])]);
    expect(flushed).toEqual([[1, 2, 3, 4, 5], [6]]);
  });

  it("flush starts a waiting batch at once instead of after the linger", async () => {
    const flushed: number[][] = [];
    const b = createBatcher<number>({ maxItems: 100, lingerMs: 60_000, flush: async (items) => void flushed.push(items) });
    const p = b.add([1, 2]);
    b.flush();
    await p;
    expect(flushed).toEqual([[1, 2]]);
  });

  it("drain writes whatever is waiting", async () => {
    const flushed: number[][] = [];
    const b = createBatcher<number>({ maxItems: 100, lingerMs: 60_000, flush: async (items) => void flushed.push(items) });
    const p = b.add([7, 8]);
    expect(b.pending).toBe(2);
    await b.drain();
    await p;
    expect(flushed).toEqual([[7, 8]]);
    expect(b.pending).toBe(0);
  });

  it("runs up to maxConcurrent flushes at once", async () => {
    let active = 0;
    let peak = 0;
    const b = createBatcher<number>({
      maxItems: 1,
      lingerMs: 1,
      maxConcurrent: 3,
      flush: async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 5));
        active--;
      },
    });
    await Promise.all(Array.from({ length: 10 }, (_, i) => b.add([i])));
    expect(peak).toBe(3);
  });
});
