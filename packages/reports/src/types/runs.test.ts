import { describe, expect, it } from "vitest";
import { runsWhere, stepRuns } from "./runs.js";

describe("runsWhere", () => {
  const runs = (flags: string) => runsWhere(flags.length, (i) => flags[i] === "x");

  it("finds each maximal run, including one at either end", () => {
    expect(runs("xx..x.xxx")).toEqual([{ first: 0, last: 1 }, { first: 4, last: 4 }, { first: 6, last: 8 }]);
  });

  it("finds none in nothing, and one over everything", () => {
    expect(runs("")).toEqual([]);
    expect(runs("...")).toEqual([]);
    expect(runs("xxx")).toEqual([{ first: 0, last: 2 }]);
  });
});

describe("stepRuns", () => {
  // Step k is flags[k]; flags[0] stands for no step and is never in a run.
  const runs = (flags: string) => stepRuns(flags.length, (k) => flags[k] === "x");

  it("spans each run of steps from the point before its first step to its last step's point", () => {
    expect(runs("xxx..x")).toEqual([{ first: 0, last: 2 }, { first: 4, last: 5 }]);
  });

  it("finds none without steps", () => {
    expect(runs("")).toEqual([]);
    expect(runs("x")).toEqual([]);
  });
});
