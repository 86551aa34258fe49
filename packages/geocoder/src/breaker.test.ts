import { describe, expect, it } from "vitest";
import { Breaker } from "./breaker.js";

describe("the geocoder's breaker", () => {
  const clock = () => {
    const c = { t: 1_000, now: () => c.t };
    return c;
  };

  it("lets lookups through until the set number fail in a row, a success in between starting the count again", () => {
    const c = clock();
    const b = new Breaker({ failures: 3, coolDownMs: 10_000, now: c.now });
    expect([b.allow(), b.failed(), b.allow(), b.failed()]).toEqual([true, undefined, true, undefined]);
    expect(b.succeeded()).toBeUndefined();
    expect([b.failed(), b.failed()]).toEqual([undefined, undefined]);
    expect(b.allow()).toBe(true);
    expect(b.failed()).toBe("opened");
    expect(b.allow()).toBe(false);
  });

  it("holds lookups off for the cool-down, then lets one trial through at a time: its failure opens it again, its success closes it", () => {
    const c = clock();
    const b = new Breaker({ failures: 1, coolDownMs: 10_000, now: c.now });
    expect(b.failed()).toBe("opened");
    c.t += 9_999;
    expect(b.allow()).toBe(false);
    c.t += 1;
    expect(b.allow()).toBe(true);
    // While the trial runs, nothing else goes.
    expect(b.allow()).toBe(false);
    // A failed trial is not a new opening (logged once), and waits a whole cool-down again.
    expect(b.failed()).toBeUndefined();
    c.t += 5_000;
    expect(b.allow()).toBe(false);
    c.t += 5_000;
    expect(b.allow()).toBe(true);
    expect(b.succeeded()).toBe("closed");
    expect([b.allow(), b.allow()]).toEqual([true, true]);
  });

  it("defaults to five failures and thirty seconds", () => {
    const b = new Breaker();
    expect([b.failures, b.coolDownMs]).toEqual([5, 30_000]);
  });
});
