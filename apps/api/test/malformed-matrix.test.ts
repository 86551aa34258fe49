/*
 * Malformed variants of every endpoint, generated from the OpenAPI document: for each
 * POST body field a wrong type, an oversized string and (where the field is not free
 * text) an injection string, each field left out in turn, bodies that are no object;
 * for each query parameter ids that are not ids. Each variant is sent on top of a valid
 * request, so it is the only thing wrong. Every answer must be a 4xx in the spec's failure
 * shape, and the records must be byte-for-byte what they were.
 */
import { Value } from "@sinclair/typebox/value";
import { beforeAll, expect, it } from "vitest";
import { MessageFailureSchema, ValidationFailureSchema } from "@fleet/contracts";
import { schema } from "@fleet/db";
import { describeApi, type ApiHarness, type Reply, type TestUser } from "./fixture.js";
import { GROUPS, noRecords, type Records } from "./matrix/index.js";
import type { RequestSpec } from "./matrix/types.js";

type JsonSchema = { type?: string | string[]; enum?: unknown[]; anyOf?: JsonSchema[]; properties?: Record<string, JsonSchema>; required?: string[] };
interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

const NOT_IDS = ["abc", "-1", "0", "1.5", "99999999999999999999", "1 OR 1=1", "1e400", "[]", ""];
const INJECTION = "'; DROP TABLE users; --";
const HUGE = "x".repeat(100_000);

function accepts(s: JsonSchema, kind: string): boolean {
  if (s.anyOf) return s.anyOf.some((x) => accepts(x, kind));
  if (s.enum) return kind === "enum-free" ? false : s.enum.some((v) => typeof v === kind);
  const types = [s.type ?? []].flat();
  return types.length === 0 || types.includes(kind);
}

/** Every row of the tables the API writes, to compare before and after. */
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
    schema.routes,
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
  ];
  return Promise.all(tables.map((t) => h.db.select().from(t)));
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
      const [method, path] = route.split(" ") as ["get" | "post", string];
      const caller = route.startsWith("get /admin") || route.startsWith("post /admin") ? h.admin : user;
      const valid = make(own);
      const at = (params: Record<string, string | number> = {}) => path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
      const sendTo = (url: string, query: Record<string, string | number> | undefined, body: unknown) =>
        h.request(method === "get" ? "GET" : "POST", url, { user: caller, ...(query ? { query } : {}), ...(body === undefined ? {} : { body }) });
      const send = (query: Record<string, string | number> | undefined, body: unknown) => sendTo(at(valid.params), query, body);
      const before = await records(h);

      for (const p of op.parameters ?? []) {
        if (p.in === "path") {
          for (const bad of NOT_IDS.filter((x) => x !== "")) expectFailure(await sendTo(at({ ...valid.params, [p.name]: bad }), valid.query, valid.body), `${route} /${p.name}=${bad}`);
          continue;
        }
        if (p.in !== "query" || !p.required) continue;
        for (const bad of NOT_IDS) {
          if (accepts(p.schema, "string") && bad !== "") continue; // a free-text parameter takes any text
          expectFailure(await send({ ...valid.query, [p.name]: bad }, valid.body), `${route} ?${p.name}=${bad}`);
        }
      }
      const body = op.requestBody && Object.values(op.requestBody.content)[0]?.schema;
      if (method === "post" && body?.properties && valid.body) {
        for (const bad of [[], null, "a string", 42]) expectFailure(await send(valid.query, bad), `${route} body ${JSON.stringify(bad)}`);
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
});
