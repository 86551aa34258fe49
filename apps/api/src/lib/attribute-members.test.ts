import type { Attributes } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import { attributeMembers, attributeMembersOfText, otherArr, otherXml } from "./attribute-members.js";

const CASES: Attributes[] = [
  {},
  { battery: 73, ignition: false, motion: true, power: 12.6 },
  { power: "12.50", sat: 0, tiny: 1e-7, big: 1e21, neg: -0.5 },
  { power: " 1e3 " },
  { power: "volts", note: `<a href='x'>&amp;</a>`, odd: "\uFFFEΩ\uFFFF😀", "2": true, empty: "", comma: "a,b}c" },
  { power: true },
  { power: false, path: "C:\\dir", quote: 'say "hi"', lines: "a\tb\r\nc" },
];
const members = (json: string) => JSON.parse(`{${json.slice(1)}}`) as unknown;

describe("a position's attribute members", () => {
  it("are otherXml, otherArr and power as @fleet/sensors' toNumber reads it, as JSON", () => {
    expect(members(attributeMembers(CASES[4]!))).toEqual({ power: null, other: otherXml(CASES[4]!), other_arr: otherArr(CASES[4]!) });
    expect([2, 3, 5, 6].map((i) => (members(attributeMembers(CASES[i]!)) as { power: unknown }).power)).toEqual([12.5, 1000, 1, 0]);
  });

  it("read from the stored text are the same as from the parsed attributes, or left to them when the text holds an escape", () => {
    for (const attributes of CASES) {
      const text = JSON.stringify(attributes);
      const fast = attributeMembersOfText(text);
      if (text.includes("\\")) expect(fast).toBeUndefined();
      else expect(fast).toBe(attributeMembers(attributes));
    }
    expect(CASES.filter((a) => attributeMembersOfText(JSON.stringify(a)) !== undefined)).toHaveLength(6);
  });
});
