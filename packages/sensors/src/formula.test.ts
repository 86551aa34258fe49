import { describe, expect, it } from "vitest";
import { applyFormula, parseFormula } from "./formula.js";

function run(src: string, value: number): number | null {
  const parsed = parseFormula(src);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.formula(value);
}

describe("parseFormula", () => {
  it("evaluates the vendor's formulas over [value] with the usual precedence", () => {
    expect(run("[value]*0.1+2", 120)).toBeCloseTo(14);
    expect(run("([value]-400)/20", 600)).toBe(10);
    expect(run("2+3*4", 0)).toBe(14);
    expect(run("(2+3)*4", 0)).toBe(20);
    expect(run("10-4-3", 0)).toBe(3);
    expect(run("100/10/5", 0)).toBe(2);
    expect(run("-[value]", 5)).toBe(-5);
    expect(run("--[value]", 5)).toBe(5);
    expect(run("[value] * -1.5", 2)).toBe(-3);
    expect(run(" [ VALUE ] / 1000 ", 2500)).toBe(2.5);
    expect(run(".5*[value]", 4)).toBe(2);
    expect(run("1e3*[value]", 2)).toBe(2000);
    expect(run("42", 7)).toBe(42);
  });

  it("answers null for a result that is no number, such as a division by zero", () => {
    expect(run("[value]/0", 1)).toBeNull();
    expect(run("[value]/([value]-1)", 1)).toBeNull();
  });

  it("refuses anything but numbers, [value], + - * / and parentheses", () => {
    for (const src of [
      "process.exit()",
      "require('fs')",
      "[value]; process.exit(1)",
      "constructor.constructor('return process')()",
      "[value]**2",
      "Math.max([value], 1)",
      "[value] % 2",
      "[other]*2",
      "[value",
      "([value]+1",
      "[value]+1)",
      "[value] 2",
      "2 +",
      "",
      "   ",
      "${1+1}",
      "`1`",
      "[value]*1e999",
      "0x10",
    ]) {
      const parsed = parseFormula(src);
      expect(parsed.ok, src).toBe(false);
    }
  });

  it("names what is wrong and where", () => {
    const parsed = parseFormula("[value]*p");
    expect(parsed).toEqual({ ok: false, error: 'Unexpected "p" at position 9.' });
  });

  it("refuses formulas too long or nested too deeply rather than exhausting the stack", () => {
    expect(parseFormula("1+".repeat(200) + "1").ok).toBe(false);
    expect(parseFormula("(".repeat(40) + "1" + ")".repeat(40)).ok).toBe(false);
    expect(parseFormula("-".repeat(100) + "1").ok).toBe(false);
    expect(parseFormula("(".repeat(20) + "[value]" + ")".repeat(20)).ok).toBe(true);
  });
});

describe("applyFormula", () => {
  it("passes the value through without a formula, and gives null for one that does not parse", () => {
    expect(applyFormula(null, 3)).toBe(3);
    expect(applyFormula("  ", 3)).toBe(3);
    expect(applyFormula("[value]*2", 3)).toBe(6);
    expect(applyFormula("[value]*2", 4)).toBe(8);
    expect(applyFormula("process.exit()", 3)).toBeNull();
  });
});
