import { describe, expect, it } from "vitest";
import { attributeKey } from "@fleet/contracts";
import { sameValue, tagValue, toNumber } from "./values.js";

describe("tag values", () => {
  it("finds a tag whatever its case, normalised as ingest normalises attribute keys", () => {
    const attrs = { ignition: true, battery_level: "12.4", io239: 1 };
    expect(tagValue(attrs, "Ignition")).toBe(true);
    expect(tagValue(attrs, " Battery Level ")).toBe("12.4");
    expect(tagValue(attrs, "IO239")).toBe(1);
    expect(tagValue(attrs, "missing")).toBeUndefined();
    expect(tagValue(attrs, "")).toBeUndefined();
    expect(tagValue(attrs, "__proto__")).toBeUndefined();
    expect(tagValue(attrs, "constructor")).toBeUndefined();
    expect(attributeKey("Fuel Level (%)")).toBe("fuel_level");
  });

  it("reads numbers from numbers and numeric text only", () => {
    expect(toNumber(" 12.5 ")).toBe(12.5);
    expect(toNumber(-3)).toBe(-3);
    expect(toNumber(true)).toBe(1);
    expect(toNumber("12V")).toBeNull();
    expect(toNumber("")).toBeNull();
    expect(toNumber("0x10")).toBeNull();
    expect(toNumber(Number.NaN)).toBeNull();
  });
});

describe("sameValue", () => {
  it("compares trimmed text without regard to case", () => {
    expect(sameValue(" on ", "ON")).toBe(true);
    expect(sameValue("open", "closed")).toBe(false);
  });

  it("compares numerically when both are numbers", () => {
    expect(sameValue("1.0", "1")).toBe(true);
    expect(sameValue(1, " 1 ")).toBe(true);
    expect(sameValue("01", "1")).toBe(true);
    expect(sameValue(2, "1")).toBe(false);
  });

  it("takes Traccar's booleans as true/false and 1/0", () => {
    expect(sameValue(true, "true")).toBe(true);
    expect(sameValue(true, "1")).toBe(true);
    expect(sameValue(false, "0")).toBe(true);
    expect(sameValue(false, "true")).toBe(false);
    expect(sameValue("true", "1")).toBe(true);
    expect(sameValue(1, "true")).toBe(true);
    expect(sameValue(2, "true")).toBe(false);
  });

  it("matches nothing with an empty expected value", () => {
    expect(sameValue("", "")).toBe(false);
    expect(sameValue("x", "  ")).toBe(false);
  });
});
