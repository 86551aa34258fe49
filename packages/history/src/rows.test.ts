import { describe, expect, it } from "vitest";
import { dateTime64Formatter, toInsertTuples, toSafeNumber } from "./rows.js";

describe("row mapping", () => {
  it("formats epoch ms exactly as toISOString does, before and after 1970", () => {
    const format = dateTime64Formatter();
    const samples = [0, -1, 999, 1000, 59_999, 60_000, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(1969, 11, 31, 23, 59, 0, 5)];
    for (let i = 0; i < 5000; i++) samples.push(Math.floor((Math.random() * 1.4 - 0.4) * 4e12));
    for (const ms of samples) {
      expect(format(ms)).toBe(new Date(ms).toISOString().slice(0, 23).replace("T", " "));
    }
  });

  it("refuses times that are not integer ms", () => {
    expect(() => toInsertTuples([{ ...base(), fixTime: 1.5 }])).toThrow(RangeError);
  });

  it("reads 64-bit integers quoted (a server's JSON) or bare (chDB's)", () => {
    expect(toSafeNumber("9007199254740991")).toBe(9007199254740991);
    expect(toSafeNumber(42)).toBe(42);
    expect(() => toSafeNumber("9007199254740993")).toThrow(RangeError);
  });
});

function base() {
  return {
    id: 1,
    deviceId: 1,
    uniqueId: "u",
    protocol: "p",
    latitude: 0,
    longitude: 0,
    altitude: 0,
    course: 0,
    speedKmh: 0,
    distanceKm: 0,
    fixTime: 0,
    serverTime: 0,
    valid: true,
    engineOn: false,
    attributes: {},
  };
}
