/*
 * Malformed variants of every endpoint, generated from the OpenAPI document: for each
 * POST body field a wrong type, an oversized string and (where the field is not free
 * text) an injection string, each field left out in turn, bodies that are no object;
 * for each query parameter ids that are not ids; for every parameter and body field,
 * `user_api_hash` and `lang` included, text with a NUL and with a lone surrogate. Each
 * variant is sent on top of a valid request, so it is the only thing wrong. Every answer
 * must be a 4xx in the spec's failure shape, and the records must be byte-for-byte what
 * they were.
 */
import { Value } from "@sinclair/typebox/value";
import { beforeAll, expect, it } from "vitest";
import { MessageFailureSchema, ValidationFailureSchema } from "@fleet/contracts";
import { schema } from "@fleet/db";
import { describeApi, type ApiHarness, type Reply, type TestUser } from "./fixture.js";
import { GROUPS, noRecords, type Records } from "./matrix/index.js";
import type { RequestSpec } from "./matrix/types.js";

type JsonSchema = { type?: string | string[]; enum?: unknown[]; anyOf?: JsonSchema[]; properties?: Record<string, JsonSchema>; required?: string[]; minimum?: number; maximum?: number };
interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

const NOT_IDS = ["abc", "-1", "0", "1.5", "99999999999999999999", "1 OR 1=1", "1e400", "[]", ""];
const INJECTION = "'; DROP TABLE users; --";
const HUGE = "x".repeat(100_000);
/**
 * Text the API refuses. A NUL travels in a URL as %00 and in a JSON body as \u0000; a lone
 * surrogate only in a JSON body, as the escape \ud800 (JSON.stringify writes it so): in a
 * URL or a form it becomes U+FFFD on the way, so it never reaches the server there.
 */
const NUL = "ab\u0000cd";
const LONE_SURROGATE = "ab\ud800cd";
/** Every endpoint but login takes these, read by the authentication hook rather than a schema. */
const AUTH_PARAMS = ["user_api_hash", "lang"];

function accepts(s: JsonSchema, kind: string): boolean {
  if (s.anyOf) return s.anyOf.some((x) => accepts(x, kind));
  if (s.enum) return kind === "enum-free" ? false : s.enum.some((v) => typeof v === kind);
  const types = [s.type ?? []].flat();
  return types.length === 0 || types.includes(kind);
}

/**
 * The text a required query parameter must refuse: ids that are not ids, or for a number
 * that is no id (a latitude) the texts that are no number in its range, and the first
 * numbers past each end of the range.
 */
function notValues(s: JsonSchema): string[] {
  if ([s.type ?? []].flat().join() !== "number") return NOT_IDS;
  const inRange = (n: number) => (s.minimum === undefined || n >= s.minimum) && (s.maximum === undefined || n <= s.maximum);
  const past = [s.minimum === undefined ? [] : [String(s.minimum - 1)], s.maximum === undefined ? [] : [String(s.maximum + 1)]].flat();
  return [...NOT_IDS.filter((x) => x.trim() === "" || !Number.isFinite(Number(x)) || !inRange(Number(x))), ...past];
}

/** Every row of the tables the API writes, to compare before and after. */
type Method = "get" | "post" | "put" | "delete";
const verb = (m: Method) => m.toUpperCase() as Uppercase<Method>;

async function records(h: ApiHarness): Promise<unknown[]> {
  const tables = [
    schema.users,
    schema.devices,
    schema.userDevices,
    schema.deviceGroups,
    schema.drivers,
    schema.sensors,
    schema.services,
    schema.geofenceGroups,
    schema.geofences,
    schema.routeGroups,
    schema.routes,
    schema.mapIconGroups,
    schema.userMapIcons,
    schema.customEvents,
    schema.alerts,
    schema.alertDevices,
    schema.gprsTemplates,
    schema.smsTemplates,
    schema.sentCommands,
    schema.tasks,
    schema.taskStatuses,
    schema.reports,
    schema.events,
    schema.sharings,
    schema.sharingDevices,
    schema.callActions,
    schema.companies,
  ];
  return Promise.all(tables.map((t) => h.db.select().from(t)));
}

/** 422 `{status: 0, errors}` naming `field`: the text reached the server as sent and was refused for what it is. */
function expectRefusedText(res: Reply, field: string, what: string): void {
  expect(res.status, `${what} → ${res.text.slice(0, 300)}`).toBe(422);
  expect(Value.Check(ValidationFailureSchema, res.body) && Object.keys(res.body.errors), `${what} → ${res.text.slice(0, 300)}`).toEqual([field]);
}

function expectFailure(res: Reply, what: string): void {
  expect(res.status, `${what} → ${res.status} ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what} → ${res.text.slice(0, 300)}`).toBeLessThan(500);
  expect(Value.Check(ValidationFailureSchema, res.body) || Value.Check(MessageFailureSchema, res.body), `${what} → ${res.text.slice(0, 300)}`).toBe(true);
}

describeApi("malformed variants of every endpoint", (h) => {
  let user: TestUser;
  let own: Records;
  let ops: Map<string, Operation>;
  const VALID = Object.assign({}, ...GROUPS.map((g) => g.valid)) as Record<string, (o: Records) => RequestSpec>;

  beforeAll(async () => {
    user = await h.newUser();
    own = noRecords(0);
    for (const g of GROUPS) own = { ...own, ...(await g.seed(h, user, own, "M")) };
    const doc = (await h.inject({ method: "GET", url: "/api/docs/json" })).body as { paths: Record<string, Record<string, Operation>> };
    ops = new Map(Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([m, op]): [string, Operation] => [`${m} ${path.replace(/^\/api/, "")}`, op])));
  });

  it("has a valid request for every route, so each variant below is the only thing wrong", () => {
    expect([...ops.keys()].filter((r) => r !== "post /login" && !(r in VALID))).toEqual([]);
  });

  // Thousands of requests, each with a records snapshot: far longer than a usual test.
  it("refuses every malformed variant with a 4xx in the failure shape and changes nothing", async () => {
    for (const [route, op] of ops) {
      const make = VALID[route];
      if (!make) continue;
      const [method, path] = route.split(" ") as [Method, string];
      const caller = path.startsWith("/admin") ? h.admin : user;
      const valid = make(own);
      const at = (params: Record<string, string | number> = {}) => path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
      const sendTo = (url: string, query: Record<string, string | number> | undefined, body: unknown) =>
        h.request(verb(method), url, { user: caller, ...(query ? { query } : {}), ...(body === undefined ? {} : { body }) });
      const send = (query: Record<string, string | number> | undefined, body: unknown) => sendTo(at(valid.params), query, body);
      const before = await records(h);

      for (const p of op.parameters ?? []) {
        if (p.in === "path" || p.in === "query") {
          const bad = p.in === "path" ? sendTo(at({ ...valid.params, [p.name]: NUL }), valid.query, valid.body) : send({ ...valid.query, [p.name]: NUL }, valid.body);
          expectRefusedText(await bad, p.name, `${route} ${p.in} ${p.name}=<NUL>`);
        }
        if (p.in === "path") {
          for (const bad of NOT_IDS.filter((x) => x !== "")) expectFailure(await sendTo(at({ ...valid.params, [p.name]: bad }), valid.query, valid.body), `${route} /${p.name}=${bad}`);
          continue;
        }
        // An optional id filter may answer an empty list for an id no record has, but never a 5xx.
        if (p.in === "query" && !p.required && accepts(p.schema, "integer")) {
          for (const bad of ["99999999999999999999", "2147483648", "9007199254740993"]) {
            const res = await send({ ...valid.query, [p.name]: bad }, valid.body);
            expect(res.status, `${route} ?${p.name}=${bad} → ${res.text.slice(0, 300)}`).toBeLessThan(500);
          }
        }
        if (p.in !== "query" || !p.required) continue;
        for (const bad of notValues(p.schema)) {
          if (accepts(p.schema, "string") && bad !== "") continue; // a free-text parameter takes any text
          expectFailure(await send({ ...valid.query, [p.name]: bad }, valid.body), `${route} ?${p.name}=${bad}`);
        }
      }
      for (const name of AUTH_PARAMS) expectRefusedText(await send({ ...valid.query, [name]: NUL }, valid.body), name, `${route} ?${name}=<NUL>`);
      const body = op.requestBody && Object.values(op.requestBody.content)[0]?.schema;
      if (method !== "get" && body?.properties && valid.body) {
        for (const bad of [[], null, "a string", 42]) expectFailure(await send(valid.query, bad), `${route} body ${JSON.stringify(bad)}`);
        for (const field of [...Object.keys(body.properties), ...AUTH_PARAMS]) {
          for (const bad of [NUL, LONE_SURROGATE]) expectRefusedText(await send(valid.query, { ...valid.body, [field]: bad }), field, `${route} ${field}=${JSON.stringify(bad)}`);
        }
        for (const [field, fs] of Object.entries(body.properties)) {
          if (!accepts(fs, "object")) expectFailure(await send(valid.query, { ...valid.body, [field]: { $ne: 1 } }), `${route} ${field}={$ne: 1}`);
          expectFailure(await send(valid.query, { ...valid.body, [field]: HUGE }), `${route} ${field}=<100k chars>`);
          if (!accepts(fs, "string") || fs.enum || fs.anyOf?.every((x) => x.enum)) expectFailure(await send(valid.query, { ...valid.body, [field]: INJECTION }), `${route} ${field}=${INJECTION}`);
        }
        for (const field of body.required ?? []) {
          if (valid.query && field in valid.query) continue; // the query supplies it
          const { [field]: _dropped, ...rest } = valid.body;
          expectFailure(await send(valid.query, rest), `${route} without ${field}`);
        }
      }
      expect(await records(h), `${route} changed records`).toEqual(before);
    }
  }, 300_000);

  // The requests of the issue that answered 500 (PostgreSQL: "invalid byte sequence 0x00").
  const REPORTED: [route: string, where: "query" | "body", field: string][] = [
    ["post /add_device", "body", "name"],
    ["post /edit_device", "body", "name"],
    ["post /add_user_driver", "body", "name"],
    ["post /add_alert", "body", "name"],
    ["post /add_task", "body", "title"],
    ["post /geofences_groups/store", "body", "title"],
    ["get /get_tasks", "query", "search_invoice_number"],
    ["get /geofences_groups", "query", "search_phrase"],
    ["get /get_user_data", "query", "user_api_hash"],
  ];
  it.each(REPORTED)("refuses %s with a NUL in its %s's %s with 422 naming it, storing nothing", async (route, where, field) => {
    const [method, path] = route.split(" ") as [Method, string];
    const valid = VALID[route]!(own);
    const before = await records(h);
    const refused = { status: 0, errors: { [field]: `The ${field.replaceAll("_", " ")} contains control characters or invalid Unicode.` } };
    const sent = (bad: string) => (where === "query" ? { query: { ...valid.query, [field]: bad }, body: valid.body } : { query: valid.query, body: { ...valid.body, [field]: bad } });
    const nul = await h.request(verb(method), path, { user, ...sent(NUL) });
    expect({ status: nul.status, body: nul.body }, nul.text).toEqual({ status: 422, body: refused });
    if (where === "body") {
      const lone = await h.request("POST", path, { user, ...sent(LONE_SURROGATE) });
      expect({ status: lone.status, body: lone.body }, lone.text).toEqual({ status: 422, body: refused });
    }
    expect(await records(h)).toEqual(before);
  });

  it("names a nested field by its dotted path, and refuses form and multipart text too", async () => {
    const before = await records(h);
    const setup = VALID["post /edit_setup"]!(own).body!;
    expect((await h.post("/edit_setup", { user, body: { ...setup, groups: [{ title: "Vans" }, { title: "Tr\u0000ucks" }] } })).body).toEqual({
      status: 0,
      errors: { "groups.1.title": "The title contains control characters or invalid Unicode." },
    });
    const alert = VALID["post /add_alert"]!(own).body as { notifications: Record<string, unknown> };
    const notifications = { ...alert.notifications, email: { active: 1, input: "ops@example.com\ud800" } };
    expect((await h.post("/add_alert", { user, body: { ...alert, notifications } })).body).toEqual({
      status: 0,
      errors: { "notifications.email.input": "The input contains control characters or invalid Unicode." },
    });
    for (const as of ["form", "multipart"] as const) {
      const fields = { ...(VALID["post /add_device"]!(own).body as Record<string, string>), name: "Tr\u0000uck" };
      expect((await h.post("/add_device", { user, as, body: fields })).body, as).toEqual({ status: 0, errors: { name: "The name contains control characters or invalid Unicode." } });
    }
    expect(await records(h)).toEqual(before);
  });
});
