import { expect, it } from "vitest";
import { AdminClientResponseSchema, AdminCompaniesResponseSchema, AdminCompanyResponseSchema, GeoCreatedSchema, GeoOkSchema, LoginResponseSchema, type AdminCompaniesResponse } from "@fleet/contracts";
import { uniqueSuffix } from "@fleet/testkit";
import { describeApi, failure, invalid, ok, type ApiHarness } from "./fixture.js";

/* The vendor's admin companies: platform-wide records that only administrators list, read and write. */

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ADMIN_ONLY = "This action is for administrators only.";

const create = async (h: ApiHarness, body: Record<string, unknown>) => ok(await h.post("/admin/companies", { user: h.admin, body }), GeoCreatedSchema).id;
const read = async (h: ApiHarness, id: number) => ok(await h.get(`/admin/companies/${id}`, { user: h.admin }), AdminCompanyResponseSchema);
const list = async (h: ApiHarness, query: Record<string, string | number>) => ok(await h.get("/admin/companies", { user: h.admin, query }), AdminCompaniesResponseSchema);
const names = async (h: ApiHarness, query: Record<string, string | number>) => (await list(h, query)).data.map((c) => c.name);
/** The page a paginator's link asks for, and the query it keeps; null for a link to nowhere. */
const linkTo = (url: string | null) => {
  if (url === null) return null;
  const u = new URL(url, "http://x");
  return { path: u.pathname, page: u.searchParams.get("page"), search_phrase: u.searchParams.get("search_phrase"), limit: u.searchParams.get("limit") };
};
const labels = (l: AdminCompaniesResponse) => l.links.map((x) => (x.active ? `[${x.label}]` : x.label));

describeApi("admin companies", (h) => {
  it("creates, reads, lists, updates and deletes a company", async () => {
    const tag = uniqueSuffix();
    const id = await create(h, { name: `  ${tag} Acme  `, vat_number: "LT100200300", registration_code: "302000111", address: "Gedimino pr. 1, Vilnius", comment: "Key client" });
    const made = await read(h, id);
    expect(made).toEqual({
      id,
      name: `${tag} Acme`,
      vat_number: "LT100200300",
      registration_code: "302000111",
      address: "Gedimino pr. 1, Vilnius",
      comment: "Key client",
      created_at: expect.stringMatching(DATE_TIME),
      updated_at: made.created_at,
      user_id: h.admin.id,
    });
    expect((await list(h, { search_phrase: tag })).data).toEqual([made]);

    // Only the name: the rest default to "".
    const bare = await create(h, { name: `${tag} Bare` });
    expect(await read(h, bare)).toMatchObject({ name: `${tag} Bare`, vat_number: "", registration_code: "", address: "", comment: "", user_id: h.admin.id });

    // Fields left out keep their values; "" clears one.
    expect(ok(await h.request("PUT", `/admin/companies/${id}`, { user: h.admin, body: { vat_number: "LT999", comment: "" } }), GeoOkSchema)).toEqual({ status: 1 });
    expect(await read(h, id)).toEqual({ ...made, vat_number: "LT999", comment: "", updated_at: expect.stringMatching(DATE_TIME) });
    ok(await h.request("PUT", `/admin/companies/${id}`, { user: h.admin, body: {} }), GeoOkSchema);
    expect(await read(h, id)).toMatchObject({ name: `${tag} Acme`, vat_number: "LT999", registration_code: "302000111", address: "Gedimino pr. 1, Vilnius", comment: "" });
    ok(await h.request("PUT", `/admin/companies/${id}`, { user: h.admin, body: { name: `${tag} Acme UAB`, address: "Vilnius" } }), GeoOkSchema);
    expect(await read(h, id)).toMatchObject({ name: `${tag} Acme UAB`, vat_number: "LT999", address: "Vilnius" });

    expect(ok(await h.request("DELETE", `/admin/companies/${id}`, { user: h.admin }), GeoOkSchema)).toEqual({ status: 1 });
    expect(failure(await h.get(`/admin/companies/${id}`, { user: h.admin }), 404)).toBe("Company not found.");
    expect(await names(h, { search_phrase: tag })).toEqual([`${tag} Bare`]);
  });

  it("takes form bodies too", async () => {
    const tag = uniqueSuffix();
    const res = await h.post("/admin/companies", { user: h.admin, as: "form", body: { name: `${tag} Form`, vat_number: "LT1" } });
    expect(await read(h, ok(res, GeoCreatedSchema).id)).toMatchObject({ name: `${tag} Form`, vat_number: "LT1", comment: "" });
  });

  it("lists in the vendor's paginator: searched, in one field when asked, sorted and paged", async () => {
    const tag = uniqueSuffix();
    const [beta, alpha, gamma] = [
      await create(h, { name: `${tag} Beta`, vat_number: `V${tag}-3`, comment: "50% off" }),
      await create(h, { name: `${tag} alpha`, vat_number: `V${tag}-1` }),
      await create(h, { name: `${tag} Gamma`, vat_number: "LT2", address: `V${tag} street` }),
    ];
    const all = await list(h, { search_phrase: tag });
    expect(all.data.map((c) => c.id)).toEqual([beta, alpha, gamma]);
    expect(all).toMatchObject({ current_page: 1, from: 1, to: 3, last_page: 1, per_page: 50, total: 3, next_page_url: null, prev_page_url: null, path: "/api/admin/companies" });
    expect([linkTo(all.first_page_url), linkTo(all.last_page_url)]).toEqual([
      { path: "/api/admin/companies", page: "1", search_phrase: tag, limit: null },
      { path: "/api/admin/companies", page: "1", search_phrase: tag, limit: null },
    ]);
    expect(all.links).toEqual([
      { url: null, label: "&laquo; Previous", active: false },
      { url: all.first_page_url, label: "1", active: true },
      { url: null, label: "Next &raquo;", active: false },
    ]);

    // Any case, in any text field unless `property` names one; LIKE wildcards are plain text.
    expect(await names(h, { search_phrase: tag.toUpperCase() })).toEqual([`${tag} Beta`, `${tag} alpha`, `${tag} Gamma`]);
    expect(await names(h, { search_phrase: `v${tag}` })).toEqual([`${tag} Beta`, `${tag} alpha`, `${tag} Gamma`]);
    expect(await names(h, { search_phrase: `v${tag}`, property: "vat_number" })).toEqual([`${tag} Beta`, `${tag} alpha`]);
    expect(await names(h, { search_phrase: `v${tag}`, property: "address" })).toEqual([`${tag} Gamma`]);
    expect(await names(h, { search_phrase: `v${tag}`, property: "name" })).toEqual([]);
    expect(await names(h, { search_phrase: `${tag}_` })).toEqual([]);
    expect(await names(h, { search_phrase: `${tag}%` })).toEqual([]);

    expect(await names(h, { search_phrase: tag, "sorting[sort_by]": "name" })).toEqual([`${tag} alpha`, `${tag} Beta`, `${tag} Gamma`]);
    expect(await names(h, { search_phrase: tag, "sorting[sort_by]": "name", "sorting[sort]": "desc" })).toEqual([`${tag} Gamma`, `${tag} Beta`, `${tag} alpha`]);
    expect(await names(h, { search_phrase: tag, "sorting[sort_by]": "vat_number" })).toEqual([`${tag} Gamma`, `${tag} alpha`, `${tag} Beta`]);
    expect(await names(h, { search_phrase: tag, "sorting[sort]": "desc" })).toEqual([`${tag} Gamma`, `${tag} alpha`, `${tag} Beta`]);

    const second = await list(h, { search_phrase: tag, "sorting[sort_by]": "name", limit: 2, page: 2 });
    expect(second).toMatchObject({ current_page: 2, from: 3, to: 3, last_page: 2, per_page: 2, total: 3, next_page_url: null });
    expect(second.data.map((c) => c.name)).toEqual([`${tag} Gamma`]);
    expect(linkTo(second.prev_page_url)).toEqual({ path: "/api/admin/companies", page: "1", search_phrase: tag, limit: "2" });
    expect(labels(second)).toEqual(["&laquo; Previous", "1", "[2]", "Next &raquo;"]);
    expect(second.links.map((l) => linkTo(l.url)?.page ?? null)).toEqual(["1", "1", "2", null]);
    const first = await list(h, { search_phrase: tag, "sorting[sort_by]": "name", limit: 2 });
    expect(first.data.map((c) => c.name)).toEqual([`${tag} alpha`, `${tag} Beta`]);
    expect(linkTo(first.next_page_url)?.page).toBe("2");
    // Past the end: an empty page, still linking back.
    const past = await list(h, { search_phrase: tag, limit: 2, page: 5 });
    expect(past).toMatchObject({ data: [], from: 0, to: 0, total: 3, last_page: 2 });
  });

  it("links a long list the way Laravel does: the ends, and three pages either side of the current one", async () => {
    const tag = uniqueSuffix();
    for (let n = 1; n <= 15; n++) await create(h, { name: `${tag} ${String(n).padStart(2, "0")}` });
    const at = async (page: number) => labels(await list(h, { search_phrase: tag, limit: 1, page }));
    expect(await at(1)).toEqual(["&laquo; Previous", "[1]", "2", "3", "4", "5", "6", "7", "8", "9", "10", "...", "14", "15", "Next &raquo;"]);
    expect(await at(8)).toEqual(["&laquo; Previous", "1", "2", "...", "5", "6", "7", "[8]", "9", "10", "11", "...", "14", "15", "Next &raquo;"]);
    expect(await at(15)).toEqual(["&laquo; Previous", "1", "2", "...", "6", "7", "8", "9", "10", "11", "12", "13", "14", "[15]", "Next &raquo;"]);
    const eighth = await list(h, { search_phrase: tag, limit: 1, page: 8 });
    expect(eighth.data.map((c) => c.name)).toEqual([`${tag} 08`]);
    expect(eighth.links.filter((l) => l.label === "...").map((l) => l.url)).toEqual([null, null]);
    expect(linkTo(eighth.last_page_url)?.page).toBe("15");
  });

  it("answers anyone but an administrator with 403 on every route, whatever the body, and changes nothing", async () => {
    const user = await h.newUser();
    const tag = uniqueSuffix();
    const id = await create(h, { name: `${tag} Kept`, comment: "as is" });
    const before = await read(h, id);
    const calls = [
      () => h.get("/admin/companies", { user }),
      () => h.get("/admin/companies", { user, query: { "sorting[sort_by]": "nonsense" } }),
      () => h.post("/admin/companies", { user, body: { name: `${tag} Sneaky` } }),
      () => h.post("/admin/companies", { user, body: {} }),
      () => h.get(`/admin/companies/${id}`, { user }),
      () => h.get("/admin/companies/not-an-id", { user }),
      () => h.request("PUT", `/admin/companies/${id}`, { user, body: { name: `${tag} Taken` } }),
      () => h.request("PUT", `/admin/companies/${id}`, { user, body: { name: "" } }),
      () => h.request("DELETE", `/admin/companies/${id}`, { user }),
    ];
    for (const call of calls) expect(failure(await call(), 403)).toBe(ADMIN_ONLY);
    expect(await read(h, id)).toEqual(before);
    expect(await names(h, { search_phrase: tag })).toEqual([`${tag} Kept`]);
    // Authentication still comes first.
    failure(await h.get("/admin/companies"), 401);
    failure(await h.request("DELETE", `/admin/companies/${id}`), 401);
    expect(await read(h, id)).toEqual(before);
  });

  it("answers a missing id with 404 on read, update and delete", async () => {
    const gone = await create(h, { name: `${uniqueSuffix()} Gone` });
    ok(await h.request("DELETE", `/admin/companies/${gone}`, { user: h.admin }), GeoOkSchema);
    for (const id of [gone, 2_000_000_000]) {
      expect(failure(await h.get(`/admin/companies/${id}`, { user: h.admin }), 404)).toBe("Company not found.");
      expect(failure(await h.request("PUT", `/admin/companies/${id}`, { user: h.admin, body: { name: "Back" } }), 404)).toBe("Company not found.");
      expect(failure(await h.request("PUT", `/admin/companies/${id}`, { user: h.admin, body: {} }), 404)).toBe("Company not found.");
      expect(failure(await h.request("DELETE", `/admin/companies/${id}`, { user: h.admin }), 404)).toBe("Company not found.");
    }
    expect(await names(h, { search_phrase: "Back" })).not.toContain("Back");
  });

  it("refuses a missing or blank name and over-long fields with 422 naming them, writing nothing", async () => {
    const tag = uniqueSuffix();
    for (const body of [{}, { name: "" }, { name: "   " }, { vat_number: `${tag}-no-name` }, { name: "x".repeat(256) }]) {
      expect(Object.keys(invalid(await h.post("/admin/companies", { user: h.admin, body }))), JSON.stringify(body).slice(0, 80)).toEqual(["name"]);
    }
    expect(invalid(await h.post("/admin/companies", { user: h.admin, body: {} }))).toEqual({ name: "The name field is required." });
    expect(Object.keys(invalid(await h.post("/admin/companies", { user: h.admin, body: { name: `${tag} Long`, vat_number: "x".repeat(65) } })))).toEqual(["vat_number"]);
    expect(Object.keys(invalid(await h.post("/admin/companies", { user: h.admin, body: { name: `${tag} Long`, comment: "x".repeat(5001) } })))).toEqual(["comment"]);
    expect(await list(h, { search_phrase: tag })).toMatchObject({ total: 0, data: [] });

    const id = await create(h, { name: `${tag} Named` });
    const before = await read(h, id);
    for (const body of [{ name: "" }, { name: " \t " }]) expect(Object.keys(invalid(await h.request("PUT", `/admin/companies/${id}`, { user: h.admin, body })))).toEqual(["name"]);
    expect(await read(h, id)).toEqual(before);

    expect(Object.keys(invalid(await h.get("/admin/companies", { user: h.admin, query: { property: "user_id", search_phrase: "1" } })))).toEqual(["property"]);
    expect(Object.keys(invalid(await h.get("/admin/companies", { user: h.admin, query: { "sorting[sort_by]": "user_id" } })))).toEqual(["sorting.sort_by"]);
    expect(Object.keys(invalid(await h.get("/admin/companies", { user: h.admin, query: { "sorting[sort]": "up" } })))).toEqual(["sorting.sort"]);
    expect(Object.keys(invalid(await h.get("/admin/companies", { user: h.admin, query: { limit: 101 } })))).toEqual(["limit"]);
  });

  it("leaves user_id out once the administrator who created a company is gone, as the Swagger types it an integer", async () => {
    const email = `second-admin-${uniqueSuffix()}@example.com`;
    const second = ok(await h.post("/admin/client", { user: h.admin, body: { email, password: "admin-pw-2", password_confirmation: "admin-pw-2", group_id: 1 } }), AdminClientResponseSchema).item;
    const hash = ok(await h.post("/login", { body: { email, password: "admin-pw-2" } }), LoginResponseSchema).user_api_hash;
    const id = ok(await h.post("/admin/companies", { hash, body: { name: "Made by the second admin" } }), GeoCreatedSchema).id;
    expect(await read(h, id)).toMatchObject({ user_id: second.id });
    ok(await h.request("DELETE", `/admin/client/${second.id}`, { user: h.admin }), GeoOkSchema);
    const orphan = await read(h, id);
    expect(orphan).not.toHaveProperty("user_id");
    expect(orphan).toMatchObject({ id, name: "Made by the second admin" });
  });
});
