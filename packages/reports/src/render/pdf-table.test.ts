import { describe, expect, it } from "vitest";
import { columnWidths } from "./pdf-table.js";

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe("columnWidths", () => {
  it("gives each column what it needs and shares what is left in proportion, filling the width", () => {
    const widths = columnWidths([50, 100, 50], 400);
    expect(widths).toEqual([100, 200, 100]);
  });

  it("keeps narrow columns whole when the content is wider than the page, and splits the rest evenly", () => {
    const widths = columnWidths([40, 300, 500, 30], 500);
    expect(widths[0]).toBe(40);
    expect(widths[3]).toBe(30);
    expect(widths[1]).toBeCloseTo(215, 6);
    expect(widths[2]).toBeCloseTo(215, 6);
    expect(sum(widths)).toBeCloseTo(500, 6);
  });

  it("settles in rounds: a column that fits only once others have settled still keeps what it needs", () => {
    // An even share is 100; after 10 settles, 290 / 2 = 145 lets the 120 column keep its need.
    const widths = columnWidths([10, 120, 400], 300);
    expect(widths).toEqual([10, 120, 170]);
  });

  it("keeps each column at least as wide as its widest word, taking the room from the columns above theirs", () => {
    // Evenly, the 300-wide text gets 215 and the 500-wide 215; a floor of 250 under the first takes 35 from the second.
    const widths = columnWidths([40, 300, 500, 30], 500, [40, 250, 100, 30]);
    expect(widths[0]).toBe(40);
    expect(widths[3]).toBe(30);
    expect(widths[1]).toBeCloseTo(250, 6);
    expect(widths[2]).toBeCloseTo(180, 6);
    expect(sum(widths)).toBeCloseTo(500, 6);
  });
});
