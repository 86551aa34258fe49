import { describe, expect, it } from "vitest";
import { runsWhere } from "./runs.js";

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
