import { expect, it } from "vitest";
import { slots } from "./slots.js";

it("runs at most `size` tasks at once, the others in the order they came, past a task that failed", async () => {
  const gate = slots(2);
  const log: string[] = [];
  let running = 0;
  let most = 0;
  const task = (name: string, fail = false) =>
    gate.run(async () => {
      running++;
      most = Math.max(most, running);
      log.push(name);
      await new Promise((r) => setTimeout(r, 10));
      running--;
      if (fail) throw new Error(name);
      return name;
    });
  const done = await Promise.allSettled([task("a"), task("b", true), task("c"), task("d"), task("e")]);
  expect(most).toBe(2);
  expect(log).toEqual(["a", "b", "c", "d", "e"]);
  expect(done.map((d) => d.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
});
