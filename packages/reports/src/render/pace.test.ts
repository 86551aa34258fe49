import { describe, expect, it } from "vitest";
import { pacer } from "./pace.js";

describe("pacer", () => {
  it("lets other work run during a long loop, and does not stop a short one", async () => {
    let others = 0;
    const other = () => {
      others++;
      if (running) setImmediate(other);
    };
    let running = true;
    setImmediate(other);
    const pause = pacer(5);
    // About 60 ms of work in 1 ms steps: the other work gets turns between them.
    for (let step = 0; step < 60; step++) {
      const until = performance.now() + 1;
      while (performance.now() < until);
      await pause();
    }
    running = false;
    expect(others).toBeGreaterThanOrEqual(5);

    // A loop shorter than a slice goes through without giving a turn.
    others = 0;
    running = true;
    setImmediate(other);
    const quick = pacer(1000);
    for (let step = 0; step < 100; step++) await quick();
    running = false;
    expect(others).toBe(0);
  });
});
