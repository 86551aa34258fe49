import { describe, expect, it } from "vitest";
import { parsePosition, undoWeekRollover } from "./parse.js";
import {
  FORBIDDEN_CHARACTERS,
  forbiddenTextCases,
  formAttributesBody,
  specArrayInQuery,
  specArrayJson,
  traccarForwardJson,
  traccarForwardQuery,
  validFields,
  type ForbiddenKind,
} from "../test/fixtures/requests.js";

const NOW = Date.UTC(2026, 10, 21, 12);
const fromQuery = (qs: string) => Object.fromEntries(new URLSearchParams(qs));

describe("parsePosition", () => {
  it("reads a Traccar forward URL with its JSON attributes, normalising keys", () => {
    const r = parsePosition(fromQuery(traccarForwardQuery), NOW);
    expect(r).toEqual({
      ok: true,
      position: {
        uniqueId: "864895030279582",
        protocol: "teltonika",
        latitude: 54.687157,
        longitude: 25.279652,
        altitude: 112,
        speed: 27,
        course: 181,
        fixTime: 1732190400000,
        attributes: { priority: 0, sat: 12, event: 0, ignition: true, motion: true, io239: 1, power: 12.77, battery_level: 98, odometer: 123456.7, rfid: "0012345678" },
      },
    });
  });

  it("reads form attributes[key]=value fields, keeping values as sent", () => {
    const r = parsePosition(fromQuery(formAttributesBody), NOW);
    expect(r.ok && r.position.attributes).toEqual({ ignition: "false", fuel_level: "41.5", driver: "Aïsha" });
    expect(r.ok && r.position.latitude).toBe(-33.86882);
  });

  it("reads the spec's array of {key, value} as JSON and as indexed form fields", () => {
    const a = parsePosition(specArrayJson, NOW);
    expect(a.ok && a.position.attributes).toEqual({ battery: "87", alarm: "sos" });
    expect(a.ok && a.position.speed).toBe(868.9);
    const b = parsePosition(fromQuery(specArrayInQuery), NOW);
    expect(b.ok && b.position.attributes).toEqual({ ignition: "1", temp1: "-4.5" });
  });

  it("reads the vendor Swagger's array of attribute objects, alone or beside {key, value} pairs", () => {
    const r = parsePosition({ ...validFields, attributes: [{ ignition: true, power: 12.1 }, { key: "sat", value: 9 }] }, NOW);
    expect(r.ok && r.position.attributes).toEqual({ ignition: true, power: 12.1, sat: 9 });
    for (const bad of [[{ key: 5, value: 1 }], [[1, 2]], ["ignition"]]) {
      expect(parsePosition({ ...validFields, attributes: bad }, NOW)).toMatchObject({ ok: false, errors: { attributes: "Each attribute needs a string key." } });
    }
  });

  it("reads Traccar's JSON forward (position + device objects, ISO times)", () => {
    const r = parsePosition(traccarForwardJson, NOW);
    expect(r.ok && r.position).toMatchObject({ uniqueId: "4209917483", protocol: "h02", fixTime: Date.UTC(2026, 10, 21, 10), attributes: { batterylevel: 77, distance: 12.5, motion: false } });
  });

  it("keeps the validity and accuracy of Traccar's JSON forward's position as attributes", () => {
    const invalid = { ...traccarForwardJson, position: { ...traccarForwardJson.position, valid: false, accuracy: 35.5 } };
    const r = parsePosition(invalid, NOW);
    expect(r.ok && r.position.attributes).toEqual({ batterylevel: 77, distance: 12.5, motion: false, valid: false, accuracy: 35.5 });
    // An attribute of the same name, sent on purpose, wins.
    const named = { ...invalid, position: { ...invalid.position, attributes: { valid: true } } };
    expect(parsePosition(named, NOW)).toMatchObject({ ok: true, position: { attributes: { valid: true, accuracy: 35.5 } } });
  });

  it("keeps a nested attribute too deep to store out, rather than failing on it", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const r = parsePosition({ ...validFields, attributes: { deep, ignition: true } }, NOW);
    expect(r.ok && r.position.attributes).toEqual({ ignition: true });
  });

  it("takes up to 128 attributes", () => {
    const many = Object.fromEntries(Array.from({ length: 128 }, (_, i) => [`a${i}`, i]));
    const r = parsePosition({ ...validFields, attributes: JSON.stringify(many) }, NOW);
    expect(r.ok && Object.keys(r.position.attributes).length).toBe(128);
  });

  it("treats missing attributes as none", () => {
    const r = parsePosition(validFields, NOW);
    expect(r.ok && r.position.attributes).toEqual({});
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["uniqueId", { uniqueId: "" }, "required"],
    ["uniqueId", { uniqueId: "x".repeat(65) }, "64"],
    ["uniqueId", { uniqueId: "bad\nid" }, "control"],
    ["uniqueId", { uniqueId: "tab\tid" }, "control"],
    ["uniqueId", { uniqueId: "del\u007fid" }, "control"],
    ["protocol", { protocol: "osm\rand" }, "control"],
    ["protocol", { protocol: "osm\u007fand" }, "control"],
    ["protocol", { protocol: undefined }, "required"],
    ["latitude", { latitude: "90.0001" }, "between"],
    ["latitude", { latitude: "north" }, "number"],
    ["longitude", { longitude: "-180.5" }, "between"],
    ["longitude", { longitude: "Infinity" }, "number"],
    ["course", { course: "361" }, "between"],
    ["course", { course: "-1" }, "between"],
    ["speed", { speed: "869.01" }, "between"],
    ["speed", { speed: "NaN" }, "number"],
    ["altitude", { altitude: "1e400" }, "number"],
    ["fixTime", { fixTime: String(NOW + 24 * 3600_000 + 1) }, "future"],
    ["fixTime", { fixTime: "1732190400" }, "milliseconds"],
    ["fixTime", { fixTime: "1732190400000.5" }, "integer"],
    ["fixTime", { fixTime: "yesterday" }, "number"],
    ["attributes", { attributes: "{not json" }, "JSON"],
    ["attributes", { attributes: "[{\"value\":1}]" }, "key"],
    ["attributes", { attributes: JSON.stringify({ k: "v".repeat(1025) }) }, "1024"],
    ["attributes", { attributes: JSON.stringify({ ["k".repeat(65)]: 1 }) }, "64"],
    ["attributes", { attributes: JSON.stringify(Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`a${i}`, i]))) }, "128"],
    ["attributes", { attributes: JSON.stringify(Array.from({ length: 129 }, (_, i) => ({ key: `a${i}`, value: i }))) }, "128"],
  ];
  it.each(invalid)("names %s when it is %j", (field, patch, hint) => {
    const r = parsePosition({ ...validFields, ...patch }, NOW);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors)).toEqual([field]);
    expect(r.errors[field]).toContain(hint);
  });

  describe.each(Object.keys(FORBIDDEN_CHARACTERS) as ForbiddenKind[])("a %s", (kind) => {
    it.each(forbiddenTextCases(kind))("is refused in $name, naming $field", ({ fields, field }) => {
      const r = parsePosition(fields, NOW);
      expect(r).toEqual({ ok: false, errors: { [field]: expect.stringContaining("contains control characters or invalid Unicode") } });
    });

    it.each(forbiddenTextCases(kind).filter((c) => c.query))("is refused in $name sent as a query string", ({ fields, field }) => {
      const qs = new URLSearchParams(fields as Record<string, string>).toString();
      const r = parsePosition(fromQuery(qs), NOW);
      expect(r.ok ? [] : Object.keys(r.errors)).toEqual([field]);
    });
  });

  it("refuses a NUL and a lone surrogate in a real Traccar forward URL's attributes", () => {
    for (const c of ["%5Cu0000", "%5Cud800", "%5CuDFFF"]) {
      const r = parsePosition(fromQuery(traccarForwardQuery.replace("0012345678", `0012${c}345678`)), NOW);
      expect(r).toEqual({ ok: false, errors: { "attributes.rfid": "The attribute rfid contains control characters or invalid Unicode." } });
    }
    // A raw NUL inside the JSON text is not JSON at all.
    const raw = parsePosition(fromQuery(traccarForwardQuery.replace("0012345678", "0012%00345678")), NOW);
    expect(raw.ok ? [] : Object.keys(raw.errors)).toEqual(["attributes"]);
  });

  it("keeps text the rule allows: emoji, accents, tabs and newlines in attribute values, DEL in them", () => {
    const attributes = JSON.stringify({ driver: "Aïsha 🚚", note: "line 1\r\n\tline 2", raw: "a\u007fb" });
    const r = parsePosition({ ...validFields, uniqueId: "van-😀", attributes }, NOW);
    expect(r.ok && r.position).toMatchObject({ uniqueId: "van-😀", attributes: { driver: "Aïsha 🚚", note: "line 1\r\n\tline 2", raw: "a\u007fb" } });
  });

  it("takes a UTF-8 encoded surrogate in a query as the U+FFFD the decoder makes of it", () => {
    const r = parsePosition(fromQuery(`${new URLSearchParams(validFields)}&attributes%5Bnote%5D=a%ED%A0%80b`), NOW);
    expect(r.ok && r.position.attributes).toEqual({ note: "a\ufffd\ufffd\ufffdb" });
  });

  it("refuses an id holding U+FFFD, the decoders' mark of bytes that are not UTF-8, as malformed", () => {
    const message = "The uniqueId contains bytes that are not valid UTF-8.";
    expect(parsePosition(fromQuery(new URLSearchParams(validFields).toString().replace("uniqueId=", "uniqueId=%FF%FE")), NOW)).toEqual({ ok: false, errors: { uniqueId: message }, malformed: message });
    const bad = parsePosition({ ...validFields, protocol: "os\ufffd", latitude: "91" }, NOW);
    expect(bad).toMatchObject({ ok: false, errors: { latitude: expect.any(String) }, malformed: "The protocol contains bytes that are not valid UTF-8." });
  });

  it("accepts the boundary values", () => {
    const r = parsePosition({ ...validFields, latitude: "-90", longitude: "180", course: "360", speed: "0", fixTime: String(NOW + 24 * 3600_000) }, NOW);
    expect(r.ok).toBe(true);
  });

  it("refuses numbers written in hexadecimal, binary or octal, which Number() would read", () => {
    const r = parsePosition({ ...validFields, latitude: "0x20", longitude: "0b11", altitude: "0o17", course: " 1e2 " }, NOW);
    expect(r).toMatchObject({ ok: false, errors: { latitude: "The latitude must be a number.", longitude: "The longitude must be a number.", altitude: "The altitude must be a number." } });
    if (!r.ok) expect(r.errors.course).toBeUndefined();
    expect(parsePosition({ ...validFields, latitude: "+54.5", longitude: ".5", speed: "12." }, NOW).ok).toBe(true);
  });

  it("reports every bad field at once", () => {
    const r = parsePosition({ uniqueId: "a" }, NOW);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(["altitude", "course", "fixTime", "latitude", "longitude", "protocol", "speed"]);
  });

  it("refuses non-objects", () => {
    expect(parsePosition("uniqueId=1", NOW)).toMatchObject({ ok: false, errors: { position: expect.any(String) } });
    expect(parsePosition(null, NOW).ok).toBe(false);
  });
});


describe("a GPS week rollover", () => {
  const WEEKS_1024 = 1024 * 7 * 86_400_000;

  it("moves a fix 1024 weeks back on to its true time, as a receiver after its rollover reports it", () => {
    // 2026-11-21 11:00 reported as 2007-04-07 11:00, by epoch milliseconds or as an ISO string.
    const truth = NOW - 3600_000;
    const rolled = truth - WEEKS_1024;
    expect(new Date(rolled).toISOString()).toBe("2007-04-07T11:00:00.000Z");
    for (const fixTime of [String(rolled), new Date(rolled).toISOString()]) {
      const r = parsePosition({ ...validFields, fixTime }, NOW);
      expect(r.ok && r.position.fixTime, fixTime).toBe(truth);
    }
    // A backlog a few days old comes back to its days too.
    expect(undoWeekRollover(truth - 3 * 86_400_000 - WEEKS_1024, NOW)).toBe(truth - 3 * 86_400_000);
  });

  it("keeps the times no whole rollover explains, or that are recent enough to be true", () => {
    // Seven years old: an old backlog, kept. 2012: 1024 weeks on would be 2031, past now; 2000: 2019, no backlog either.
    for (const t of [NOW - 7 * 365 * 86_400_000, Date.UTC(2012, 5, 1), Date.UTC(2000, 0, 2)]) expect(undoWeekRollover(t, NOW)).toBe(t);
    // Just after now's rollover twin, the twin itself would be in the future beyond the tolerance: kept as sent.
    const ahead = NOW + 2 * 86_400_000 - WEEKS_1024;
    expect(undoWeekRollover(ahead, NOW)).toBe(ahead);
  });
});
