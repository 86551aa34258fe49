import { describe, expect, it } from "vitest";
import {
  AddCustomEventDataResponseSchema,
  AddCustomEventResponseSchema,
  CustomEventOkResponseSchema,
  EditCustomEventDataResponseSchema,
  GetCustomEventsResponseSchema,
  protocols,
  type CustomEventListItem,
} from "@fleet/contracts";
import { schema } from "@fleet/db";
import { describeApi, failure, invalid, ok, type ApiHarness, type BodyEncoding, type TestUser } from "./fixture.js";

const TYPES = [
  { id: "1", value: "Equals to (=)" },
  { id: "2", value: "Greater than (>)" },
  { id: "3", value: "Less than (<)" },
];

const speeding = { protocol: "osmand", message: "Over 100", tag: ["speed"], type: [2], tag_value: ["100"] };

async function add(h: ApiHarness, user: TestUser, body: Record<string, unknown> = speeding, as: BodyEncoding = "json"): Promise<number> {
  return ok(await h.post("/add_custom_event", { user, body, as }), AddCustomEventResponseSchema).id;
}

async function editData(h: ApiHarness, user: TestUser, id: number) {
  return ok(await h.get("/edit_custom_event_data", { user, query: { custom_event_id: id } }), EditCustomEventDataResponseSchema);
}

async function list(h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) {
  return ok(await h.get("/get_custom_events", { user, query }), GetCustomEventsResponseSchema).items.events;
}

async function rows(h: ApiHarness, user: TestUser) {
  return (await h.db.select().from(schema.customEvents)).filter((r) => r.userId === user.id).sort((a, b) => a.id - b.id);
}

describeApi("custom events", (h) => {
  describe("add_custom_event_data", () => {
    it("lists the protocol catalogue and the three condition types", async () => {
      const user = await h.newUser();
      expect(ok(await h.get("/add_custom_event_data", { user }), AddCustomEventDataResponseSchema)).toEqual({ protocols: protocols.map((p) => ({ id: p, value: p })), types: TYPES, status: 1 });
    });
  });

  describe("add_custom_event and reading it back", () => {
    it("stores the parallel arrays of a multipart form and returns them in both record shapes", async () => {
      const user = await h.newUser();
      const id = await add(
        h,
        user,
        { protocol: "teltonika", message: "Hot and fast", "tag[0]": "Engine Temp", "type[0]": 2, "tag_value[0]": " 95.5 ", "tag[1]": "speed", "type[1]": 3, "tag_value[1]": "-3", "tag[2]": "din1", "type[2]": 1, "tag_value[2]": "on", show_always: 1 },
        "multipart",
      );
      const conditions = [
        { tag: "engine_temp", type: "2", tag_value: "95.5" },
        { tag: "speed", type: "3", tag_value: "-3" },
        { tag: "din1", type: "1", tag_value: "on" },
      ];
      expect(await editData(h, user, id)).toEqual({ item: { id, user_id: user.id, protocol: "teltonika", conditions, message: "Hot and fast", always: 1 }, protocols: protocols.map((p) => ({ id: p, value: p })), types: TYPES, status: 1 });
      const expected: CustomEventListItem = {
        id: String(id),
        user_id: String(user.id),
        protocol: "teltonika",
        conditions,
        message: "Hot and fast",
        always: "1",
        tags: ["engine_temp", "speed", "din1"].map((tag) => ({ event_custom_id: String(id), tag })),
      };
      expect((await list(h, user)).data).toEqual([expected]);
    });

    it("takes `tag[]` form fields, single values and JSON `conditions` alike", async () => {
      const user = await h.newUser();
      const form = await add(h, user, { protocol: "osmand", message: "M", "tag[]": "speed", "type[]": "2", "tag_value[]": "100" }, "form");
      const single = await add(h, user, { protocol: "osmand", message: "M", tag: "speed", type: 2, tag_value: "100" }, "form");
      const json = await add(h, user, { protocol: "osmand", message: "M", conditions: [{ tag: "speed", type: "2", tag_value: "100" }] });
      for (const id of [form, single, json]) {
        expect((await editData(h, user, id)).item).toMatchObject({ conditions: [{ tag: "speed", type: "2", tag_value: "100" }], always: 0 });
      }
    });

    it("pages the user's events by id, 10 a page, and never lists another user's", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) ids.push(await add(h, a, { ...speeding, message: `A ${i}` }));
      await add(h, b, { ...speeding, message: "B's secret" });
      const first = await list(h, a);
      expect(first).toMatchObject({ total: 12, per_page: 10, current_page: 1, last_page: 2, from: 1, to: 10, url: "/api/get_custom_events" });
      expect(first.data.map((e) => Number(e.id))).toEqual(ids.slice(0, 10));
      expect((await list(h, a, { page: 2 })).data.map((e) => Number(e.id))).toEqual(ids.slice(10));
      const theirs = await list(h, b);
      expect(theirs.total).toBe(1);
      expect(JSON.stringify(theirs)).not.toContain("A 1");
      const queries: Record<string, string | number>[] = [{ page: 0 }, { per_page: 101 }, { per_page: "x" }];
      for (const query of queries) invalid(await h.get("/get_custom_events", { user: a, query }));
    });
  });

  describe("validation", () => {
    it("refuses bad conditions, protocols and messages with the field at fault, writing nothing", async () => {
      const user = await h.newUser();
      const cases: [Record<string, unknown>, string][] = [
        [{ tag: ["speed", "rpm"] }, "tag"],
        [{ tag: [], type: [], tag_value: [] }, "tag"],
        [{ tag: undefined, type: undefined, tag_value: undefined }, "tag"],
        [{ tag: ["!!!"] }, "tag.0"],
        [{ tag: ["speed; DROP TABLE users"] }, "tag.0"],
        [{ tag: ["_ _"] }, "tag.0"],
        [{ tag_value: ["fast"] }, "tag_value.0"],
        [{ tag_value: ["1e400"] }, "tag_value.0"],
        [{ type: [1], tag_value: ["  "] }, "tag_value.0"],
        [{ type: [4] }, "type.0"],
        [{ type: ["equals"] }, "type.0"],
        [{ conditions: [{ tag: "speed", type: 2, tag_value: "1" }] }, "conditions"],
        [{ tag: undefined, type: undefined, tag_value: undefined, conditions: [] }, "conditions"],
        [{ tag: undefined, type: undefined, tag_value: undefined, conditions: [{ tag: "speed", type: 3, tag_value: "slow" }] }, "conditions.0.tag_value"],
        [{ tag: ["x".repeat(65)] }, "tag.0"],
        [{ tag: Array(21).fill("speed"), type: Array(21).fill(2), tag_value: Array(21).fill("1") }, "tag"],
        [{ protocol: "carrier-pigeon" }, "protocol"],
        [{ protocol: undefined }, "protocol"],
        [{ message: " " }, "message"],
        [{ message: "x".repeat(1001) }, "message"],
        [{ message: undefined }, "message"],
        [{ show_always: "yes" }, "show_always"],
      ];
      for (const [fields, field] of cases) {
        const body = Object.fromEntries(Object.entries({ ...speeding, ...fields }).filter(([, v]) => v !== undefined));
        expect(Object.keys(invalid(await h.post("/add_custom_event", { user, body }))), JSON.stringify(fields).slice(0, 200)).toContain(field);
      }
      expect(await rows(h, user)).toEqual([]);
    });

    it("stores injection text as plain text", async () => {
      const user = await h.newUser();
      const message = "'; DROP TABLE custom_events; -- <b>";
      const id = await add(h, user, { ...speeding, message, tag_value: ["100"], type: [2] });
      expect((await editData(h, user, id)).item.message).toBe(message);
      const equals = await add(h, user, { ...speeding, type: [1], tag_value: ["1' OR '1'='1"] });
      expect((await editData(h, user, equals)).item.conditions[0]!.tag_value).toBe("1' OR '1'='1");
    });
  });

  describe("edit and destroy", () => {
    it("rewrites the event and keeps show_always unless given", async () => {
      const user = await h.newUser();
      const id = await add(h, user, { ...speeding, show_always: 1 });
      ok(await h.post("/edit_custom_event", { user, body: { id, protocol: "gt06", message: "Low battery", tag: ["Battery"], type: [3], tag_value: ["11.5"] } }), CustomEventOkResponseSchema);
      expect((await editData(h, user, id)).item).toEqual({ id, user_id: user.id, protocol: "gt06", conditions: [{ tag: "battery", type: "3", tag_value: "11.5" }], message: "Low battery", always: 1 });
      ok(await h.post("/edit_custom_event", { user, body: { id, protocol: "gt06", message: "Low battery", conditions: [{ tag: "battery", type: 3, tag_value: "11" }], show_always: 0 } }), CustomEventOkResponseSchema);
      expect((await editData(h, user, id)).item).toMatchObject({ conditions: [{ tag: "battery", type: "3", tag_value: "11" }], always: 0 });
      // The spec makes the conditions optional on edit: left out, they are kept.
      ok(await h.post("/edit_custom_event", { user, as: "form", body: { id, protocol: "gt06", message: "Battery low" } }), CustomEventOkResponseSchema);
      expect((await editData(h, user, id)).item).toMatchObject({ message: "Battery low", conditions: [{ tag: "battery", type: "3", tag_value: "11" }], always: 0 });
      // Sent empty, they are still refused: an event with no condition would never fire.
      invalid(await h.post("/edit_custom_event", { user, body: { id, protocol: "gt06", message: "Low battery", conditions: [] } }));
      const before = await rows(h, user);
      invalid(await h.post("/edit_custom_event", { user, body: { id, protocol: "gt06", message: "Low battery", tag: ["battery"], type: [2], tag_value: ["lots"] } }));
      expect(await rows(h, user)).toEqual(before);
    });

    it("answers another user's event exactly as a missing one and leaves it alone", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const id = await add(h, a);
      const before = await rows(h, a);
      for (const target of [id, 2_000_000_000]) {
        expect(failure(await h.get("/edit_custom_event_data", { user: b, query: { custom_event_id: target } }), 404)).toBe("Custom event not found.");
        expect(failure(await h.post("/edit_custom_event", { user: b, body: { ...speeding, id: target } }), 404)).toBe("Custom event not found.");
        // The record is looked up first, so a bad body does not tell the two apart either.
        expect(failure(await h.post("/edit_custom_event", { user: b, body: { ...speeding, id: target, tag_value: ["x"] } }), 404)).toBe("Custom event not found.");
        expect(failure(await h.get("/destroy_custom_event", { user: b, query: { custom_event_id: target } }), 404)).toBe("Custom event not found.");
      }
      expect(await rows(h, a)).toEqual(before);
      for (const bad of ["abc", "0", "-1", "1.5", "99999999999"]) invalid(await h.get("/edit_custom_event_data", { user: a, query: { custom_event_id: bad } }));
    });

    it("deletes the user's event", async () => {
      const user = await h.newUser();
      const id = await add(h, user);
      ok(await h.get("/destroy_custom_event", { user, query: { custom_event_id: id } }), CustomEventOkResponseSchema);
      expect(await rows(h, user)).toEqual([]);
      failure(await h.get("/edit_custom_event_data", { user, query: { custom_event_id: id } }), 404);
    });
  });
});
