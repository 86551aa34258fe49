import { describe, expect, it } from "vitest";
import { sheetNames } from "./sheet-names.js";

describe("sheetNames", () => {
  it("replaces the characters Excel forbids and keeps the rest, letters outside ASCII included", () => {
    expect(sheetNames(["Truck [A]: 1/2 *x*? \\y", "Москва депо"])).toEqual(["Truck A 1 2 x y", "Москва депо"]);
  });

  it("cuts a long heading to 31 characters, at a word's end when there is one", () => {
    const [name] = sheetNames(["Truck LT-001 [Kaunas–Vilnius]: line *7*/night shift"]);
    expect(name).toBe("Truck LT-001 Kaunas–Vilnius");
    const [word] = sheetNames(["x".repeat(40)]);
    expect(word).toBe("x".repeat(31));
  });

  it("never splits a character written as two UTF-16 units", () => {
    const [name] = sheetNames(["a".repeat(30) + "😀"]);
    expect(name).toBe("a".repeat(30));
  });

  it("drops apostrophes at either end", () => {
    expect(sheetNames(["'quoted'"])).toEqual(["quoted"]);
  });

  it("numbers headings that come out the same, without regard to case, still within 31 characters", () => {
    const long = "y".repeat(40);
    expect(sheetNames(["Depot", "depot", "DEPOT", long, long])).toEqual(["Depot", "depot (2)", "DEPOT (3)", "y".repeat(31), `${"y".repeat(27)} (2)`]);
  });

  it("names a heading with nothing usable left, and keeps clear of the reserved name History", () => {
    expect(sheetNames(["[]:*?/\\", "  ", "History", "Sheet 1"])).toEqual(["Sheet 1", "Sheet 2", "History (2)", "Sheet 1 (2)"]);
  });
});
