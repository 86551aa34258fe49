import { TypeCompiler } from "@sinclair/typebox/compiler";
import { describe, expect, it } from "vitest";
import { attributeKey, RawPositionSchema, rfidOf, type RawPosition } from "./position.js";

/** How the tracker checks a message from positions.raw. */
const check = TypeCompiler.Compile(RawPositionSchema);

const raw: RawPosition = {
  id: 1,
  uniqueId: "864895030279582",
  protocol: "teltonika",
  latitude: 54.687157,
  longitude: 25.279652,
  altitude: 112,
  course: 181,
  speed: 27,
  fixTime: 1732190400000,
  serverTime: 1732190401000,
  attributes: { rfid: "0012345678", ignition: true, power: 12.77 },
};

describe("RawPositionSchema, compiled as the tracker compiles it", () => {
  it("accepts a clean position, emoji, tabs and newlines included", () => {
    expect(check.Check(raw)).toBe(true);
    expect(check.Check({ ...raw, uniqueId: "van-😀", attributes: { driver: "Aïsha 🚚", note: "a\tb\r\nc" } })).toBe(true);
  });

  it.each([
    ["a NUL in an attribute value", { attributes: { rfid: "zz\u0000zz" } }],
    ["a lone high surrogate in an attribute value", { attributes: { rfid: "zz\ud800zz" } }],
    ["a lone low surrogate in an attribute value", { attributes: { rfid: "\udc00" } }],
    ["a control character in an attribute value", { attributes: { event: "\u001b[31m" } }],
    ["a NUL in the uniqueId", { uniqueId: "86489\u00005030279582" }],
    ["a lone surrogate in the uniqueId", { uniqueId: "\ud83d" }],
    ["a NUL in the protocol", { protocol: "osm\u0000and" }],
  ])("refuses %s", (_name, patch) => {
    expect(check.Check({ ...raw, ...patch })).toBe(false);
  });
});

describe("rfidOf", () => {
  it("reads rfid, then Traccar's driveruniqueid, trimmed and lower-cased", () => {
    expect(rfidOf({ rfid: " AB12Cd " })).toBe("ab12cd");
    expect(rfidOf({ driveruniqueid: "00FF" })).toBe("00ff");
    expect(rfidOf({ rfid: "first", driveruniqueid: "second" })).toBe("first");
    expect(rfidOf({ rfid: 123456 })).toBe("123456");
  });

  it("finds none in empty, blank or boolean values", () => {
    expect(rfidOf({})).toBeUndefined();
    expect(rfidOf({ rfid: "" })).toBeUndefined();
    expect(rfidOf({ rfid: "   " })).toBeUndefined();
    expect(rfidOf({ rfid: true })).toBeUndefined();
    expect(rfidOf({ rfid: "", driveruniqueid: "x1" })).toBe("x1");
  });
});

describe("attributeKey", () => {
  it("lower-cases and folds other characters to underscores", () => {
    expect(attributeKey("Battery Level")).toBe("battery_level");
    expect(attributeKey("io-239")).toBe("io-239");
    expect(attributeKey("  ")).toBe("");
    expect(attributeKey("Temp.1 (°C)")).toBe("temp_1_c");
  });
});
