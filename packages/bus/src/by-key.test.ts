import { sleep } from "@fleet/testkit";
import { describe, expect, it } from "vitest";
import { forEachKeyInOrder } from "./by-key.js";


describe("forEachKeyInOrder", () => {
  it("runs one key's messages in order and different keys at the same time", async () => {
    const msgs = [0, 1, 2].flatMap((seq) => ["a", "b", "c"].map((key) => ({ key, seq })));
    const done: string[] = [];
    let running = 0;
    let peak = 0;
    await forEachKeyInOrder(msgs, async (m) => {
      peak = Math.max(peak, ++running);
      await sleep(m.key === "a" ? 5 : 1);
      done.push(`${m.key}${m.seq}`);
      running--;
    });
    for (const key of ["a", "b", "c"]) expect(done.filter((d) => d[0] === key)).toEqual([`${key}0`, `${key}1`, `${key}2`]);
    expect(peak).toBe(3);
  });

  it("skips the rest of a failed key, finishes the others, then throws the first error", async () => {
    const msgs = [
      { key: "a", n: 1 },
      { key: "b", n: 1 },
      { key: "a", n: 2 },
      { key: "b", n: 2 },
    ];
    const done: string[] = [];
    const run = forEachKeyInOrder(msgs, async (m) => {
      if (m.key === "a" && m.n === 1) throw new Error("boom");
      await sleep(5);
      done.push(`${m.key}${m.n}`);
    });
    await expect(run).rejects.toThrow("boom");
    expect(done).toEqual(["b1", "b2"]);
  });

  it("never runs more keys at once than asked", async () => {
    const msgs = Array.from({ length: 20 }, (_, i) => ({ key: `k${i}` }));
    let running = 0;
    let peak = 0;
    await forEachKeyInOrder(
      msgs,
      async () => {
        peak = Math.max(peak, ++running);
        await sleep(2);
        running--;
      },
      { concurrency: 4 },
    );
    expect(peak).toBe(4);
  });
});
