/*
 * Tenant isolation across every endpoint of the API: user B, holding records of its own,
 * calls each endpoint with user A's ids. Every answer must be exactly the answer for an id
 * that does not exist (status and body), and A's records must come out unchanged. List
 * endpoints must never show A's records to B. A last test checks that the matrix names
 * every authenticated route the OpenAPI document lists, so a new route cannot skip it.
 * The cases live per endpoint group in ./matrix/.
 */
import { beforeAll, expect, it } from "vitest";
import { describeApi, type ApiHarness, type TestUser } from "./fixture.js";
import { GROUPS, noRecords, type Records } from "./matrix/index.js";

/** An id no record has (int4 range, far above anything a test suite creates). */
const MISSING = 2_000_000_000;

async function seedAll(h: ApiHarness, user: TestUser, tag: string): Promise<Records> {
  let records = noRecords(0);
  for (const g of GROUPS) records = { ...records, ...(await g.seed(h, user, records, tag)) };
  return records;
}

/** What the owner sees through every id-taking read of the matrix, to compare before and after. */
async function view(h: ApiHarness, user: TestUser, own: Records): Promise<unknown[]> {
  const reads = GROUPS.flatMap((g) => g.idCases).filter((c) => c.route.startsWith("get ") && !/destroy|change_active/.test(c.route));
  const out: unknown[] = [];
  for (const c of reads) {
    const res = await c.call(h, user, own, own);
    expect(res.status, `${c.route} as the owner → ${res.text.slice(0, 300)}`).toBe(200);
    out.push(res.body);
  }
  for (const c of GROUPS.flatMap((g) => g.listCases).filter((c) => !c.route.includes("latest") && c.route !== "get /get_devices")) {
    out.push((await c.call(h, user)).body);
  }
  return out;
}

describeApi("tenant isolation", (h) => {
  let a: TestUser;
  let b: TestUser;
  let ra: Records;
  let rb: Records;

  beforeAll(async () => {
    a = await h.newUser();
    b = await h.newUser();
    ra = await seedAll(h, a, "A");
    rb = await seedAll(h, b, "B");
  });

  it("answers another user's id exactly as a missing id, on every id-taking endpoint, and leaves the owner's records alone", async () => {
    const missing = noRecords(MISSING);
    const before = await view(h, a, ra);
    for (const c of GROUPS.flatMap((g) => g.idCases)) {
      const theirs = await c.call(h, b, ra, rb);
      const none = await c.call(h, b, missing, rb);
      expect(theirs.status, `${c.route} with A's id → ${theirs.text}`).toBeGreaterThanOrEqual(400);
      expect(theirs.status, `${c.route} with A's id → ${theirs.text}`).toBeLessThan(500);
      expect({ status: theirs.status, body: theirs.body }, c.route).toEqual({ status: none.status, body: none.body });
    }
    expect(await view(h, a, ra)).toEqual(before);
    // And B's own records still work: the refusals were about A's ids, not about B.
    await view(h, b, rb);
  });

  it("never lists another user's records", async () => {
    const secret = [...GROUPS.flatMap((g) => g.privateText("A")), a.email];
    for (const c of GROUPS.flatMap((g) => g.listCases)) {
      const res = await c.call(h, b);
      expect(res.status, `${c.route} → ${res.text}`).toBe(200);
      for (const text of secret) expect(res.text, c.route).not.toContain(text);
    }
  });

  it("covers every authenticated route of the OpenAPI document", async () => {
    const doc = (await h.inject({ method: "GET", url: "/api/docs/json" })).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path.replace(/^\/api/, "")}`));
    const covered = new Set(GROUPS.flatMap((g) => [...g.idCases, ...g.listCases].map((c) => c.route.split(" (")[0]!).concat(g.accountOnly ?? [])));
    expect(routes.filter((r) => !covered.has(r))).toEqual([]);
  });
});
