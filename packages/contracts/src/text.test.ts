import { describe, expect, it } from "vitest";
import { ALLOWED_TEXT_PATTERN, findForbiddenText, findUndecodableText, forbiddenTextMessage, hasForbiddenText, undecodableTextMessage } from "./text.js";

const refused: [string, string][] = [
  ["NUL", "ab\u0000cd"],
  ["U+0001", "\u0001"],
  ["U+0008", "a\u0008"],
  ["vertical tab", "a\u000bb"],
  ["form feed", "a\u000cb"],
  ["U+000E", "a\u000eb"],
  ["U+001F", "a\u001f"],
  ["a lone high surrogate", "ab\ud800cd"],
  ["a lone high surrogate at the end", "ab\udbff"],
  ["a lone low surrogate", "ab\udc00cd"],
  ["a low surrogate before a high one", "\ude00\ud83d"],
  ["a pair followed by a lone high surrogate", "😀\ud83d"],
];
const allowed: [string, string][] = [
  ["plain text", "Truck 7"],
  ["the empty string", ""],
  ["tab, newline and carriage return", "a\tb\nc\r\nd"],
  ["DEL", "a\u007fb"],
  ["C1 controls and U+FFFD", "a\u0080\u009f\ufffd"],
  ["accents", "Aïsha Šeškutė"],
  ["emoji (a surrogate pair)", "van 😀 🚚"],
  ["the first and last astral code points", "\ud800\udc00\udbff\udfff"],
];

describe("the text rule", () => {
  const withU = new RegExp(ALLOWED_TEXT_PATTERN, "u");
  const withoutU = new RegExp(ALLOWED_TEXT_PATTERN);

  it.each(refused)("refuses %s, as the predicate and as the pattern with and without the u flag", (_name, s) => {
    expect(hasForbiddenText(s)).toBe(true);
    expect(withU.test(s)).toBe(false);
    expect(withoutU.test(s)).toBe(false);
  });

  it.each(allowed)("allows %s, as the predicate and as the pattern with and without the u flag", (_name, s) => {
    expect(hasForbiddenText(s)).toBe(false);
    expect(withU.test(s)).toBe(true);
    expect(withoutU.test(s)).toBe(true);
  });

  it("checks every C0 control character", () => {
    const refusedCodes = Array.from({ length: 32 }, (_, c) => c).filter((c) => hasForbiddenText(`x${String.fromCharCode(c)}x`));
    expect(refusedCodes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]);
  });

  it("names the field in its message", () => {
    expect(forbiddenTextMessage("name")).toBe("The name contains control characters or invalid Unicode.");
  });
});

describe("findForbiddenText", () => {
  it("finds nothing in clean values, numbers, booleans and null", () => {
    expect(findForbiddenText({ a: "x", b: [1, true, null, { c: "😀\t" }], d: undefined })).toBeUndefined();
    expect(findForbiddenText(undefined)).toBeUndefined();
    expect(findForbiddenText("ok")).toBeUndefined();
  });

  it("gives the dotted path of the offending string", () => {
    expect(findForbiddenText({ name: "a\u0000" })).toBe("name");
    expect(findForbiddenText({ groups: [{ title: "ok" }, { title: "x\ud800" }] })).toBe("groups.1.title");
    expect(findForbiddenText({ a: { b: { c: ["", "\u001f"] } } })).toBe("a.b.c.1");
    expect(findForbiddenText("\u0000")).toBe("");
  });

  it("counts an offending key as its object's", () => {
    expect(findForbiddenText({ notifications: { "a\u0000": 1 } })).toBe("notifications");
    expect(findForbiddenText({ "\udc00": "x" })).toBe("");
  });

  it("walks objects without a prototype (parsed query strings) but never reads binary data", () => {
    const query = Object.assign(Object.create(null) as Record<string, unknown>, { s: "a\u0000" });
    expect(findForbiddenText(query)).toBe("s");
    expect(findForbiddenText({ icon: Buffer.from([0, 1, 2, 0xed, 0xa0, 0x80]), name: "ok" })).toBeUndefined();
    expect(findForbiddenText({ icon: new Uint8Array([0]), when: new Date(0) })).toBeUndefined();
  });

  it("walks nesting deeper than any stack", () => {
    let deep: unknown = "x\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findForbiddenText(deep)?.split(".").length).toBe(100_000);
  });
});

describe("findUndecodableText", () => {
  it("gives the dotted path of the first string or key holding U+FFFD, the decoders' mark of bytes that are not UTF-8", () => {
    expect(findUndecodableText({ imei: "35\ufffd\ufffd", name: "ok" })).toBe("imei");
    expect(findUndecodableText({ groups: [{ title: "ok" }, { "t\ufffd": "x" }] })).toBe("groups.1");
    expect(findUndecodableText({ name: "Aïsha 😀", n: 1, icon: Buffer.from([0xff, 0xfe]) })).toBeUndefined();
    expect(undecodableTextMessage("imei")).toBe("The imei contains bytes that are not valid UTF-8.");
  });
});
