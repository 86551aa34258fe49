import { describe, expect, it } from "vitest";
import { expandKeys } from "./expand-keys.js";

describe("expandKeys", () => {
  it("builds arrays and objects from bracketed names", () => {
    expect(
      expandKeys({
        "devices[]": ["1", "2"],
        "groups[0][id]": "5",
        "groups[0][title]": "Vans",
        "groups[1][title]": "Cars",
        "notifications[email][active]": "1",
        name: "x",
      }),
    ).toEqual({ devices: ["1", "2"], groups: [{ id: "5", title: "Vans" }, { title: "Cars" }], notifications: { email: { active: "1" } }, name: "x" });
  });

  it("appends single `[]` values in order", () => {
    expect(expandKeys({ "tag[]": "a" })).toEqual({ tag: ["a"] });
  });

  it("ignores prototype keys and absurd indexes", () => {
    const out = expandKeys({ "__proto__[polluted]": "1", "a[constructor][x]": "1", "b[99999999]": "z" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(out.b).toEqual({ "99999999": "z" });
  });

  it("leaves plain keys and odd names alone", () => {
    expect(expandKeys({ "a]b": "1", "[x]": "2" })).toEqual({ "a]b": "1", "[x]": "2" });
  });
});
