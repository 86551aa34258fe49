import { expect, it } from "vitest";
import { AddUserSmsTemplateResponseSchema, AdminClientsResponseSchema, GetUserSmsTemplatesResponseSchema, MAX_PER_PAGE } from "@fleet/contracts";
import { describeApi, invalid, ok, type TestUser } from "./fixture.js";

/*
 * The page and the page size of every paged list: `page`, and `per_page` or the vendor's
 * `limit`. Out of range or not written as a plain integer is a 422 naming the field, never
 * a value silently ignored or read some other way.
 */
describeApi("paged lists", (h) => {
  /** Every paged list with the query it needs besides paging, as `user` calls it. */
  async function lists(user: TestUser): Promise<[string, Record<string, string | number>, TestUser][]> {
    const device_id = await h.addDevice(user);
    const plain = ["/get_user_drivers", "/get_routes", "/get_tasks", "/get_reports", "/get_custom_events", "/get_user_gprs_templates", "/get_user_sms_templates"];
    const groups = ["/geofences_groups", "/devices_groups", "/routes_groups", "/pois_groups"];
    return [...[...plain, ...groups].map((path): [string, Record<string, string | number>, TestUser] => [path, {}, user]), ["/get_sensors", { device_id }, user], ["/get_services", { device_id }, user], ["/admin/clients", {}, h.admin]];
  }

  it("refuses a limit or per_page out of range with 422 naming the field", async () => {
    for (const [path, query, user] of await lists(await h.newUser())) {
      const errors = async (paging: Record<string, string>) => invalid(await h.get(path, { user, query: { ...query, ...paging } }));
      expect(await errors({ limit: "-5" }), path).toEqual({ limit: "The limit must be at least 1." });
      expect(await errors({ limit: "100000" }), path).toEqual({ limit: `The limit may not be greater than ${MAX_PER_PAGE}.` });
      if (!path.endsWith("_groups")) expect(await errors({ per_page: "0" }), path).toEqual({ per_page: "The per page must be at least 1." });
    }
  });

  it("refuses a page or a page size not written as a plain positive integer", async () => {
    for (const [path, query, user] of await lists(await h.newUser())) {
      const errors = async (paging: Record<string, string>) => invalid(await h.get(path, { user, query: { ...query, ...paging } }));
      for (const page of ["1e3", "abc", "0x10", "1.0", " 2", "+2", "2,5", "Infinity"]) expect(await errors({ page }), `${path} page=${page}`).toEqual({ page: "The page must be an integer." });
      expect(await errors({ page: "0" }), path).toEqual({ page: "The page must be at least 1." });
      expect(await errors({ page: "-1" }), path).toEqual({ page: "The page must be at least 1." });
      expect(await errors({ limit: "1e1" }), path).toEqual({ limit: "The limit must be an integer." });
    }
    // Reported with the schema's other errors, all at once.
    const user = await h.newUser();
    expect(invalid(await h.get("/get_sensors", { user, query: { page: "1e3", device_id: "x" } }))).toEqual({ page: "The page must be an integer.", device_id: expect.any(String) });
  });

  it("reads limit as the page size, as per_page; given both, they must agree", async () => {
    const user = await h.newUser();
    for (const title of ["a", "b", "c"]) ok(await h.post("/add_user_sms_template", { user, body: { title, message: `${title}!` } }), AddUserSmsTemplateResponseSchema);
    const page = async (query: Record<string, string>) => ok(await h.get("/get_user_sms_templates", { user, query }), GetUserSmsTemplatesResponseSchema).items.user_sms_templates;
    for (const query of [{ limit: "2" }, { per_page: "2" }, { limit: "2", per_page: "2" }, { limit: "2", page: "1" }] as Record<string, string>[]) {
      expect(await page(query), JSON.stringify(query)).toMatchObject({ total: 3, per_page: 2, current_page: 1, last_page: 2, data: [{ title: "a" }, { title: "b" }] });
    }
    expect(await page({ limit: "2", page: "2" })).toMatchObject({ current_page: 2, data: [{ title: "c" }] });
    expect(await page({ page: "02" })).toMatchObject({ current_page: 2, per_page: 10, data: [] });
    expect(invalid(await h.get("/get_user_sms_templates", { user, query: { limit: "2", per_page: "3" } }))).toEqual({ limit: "The limit and the per page differ: give one of them." });
  });

  it("lists every client on one page unless limit asks for pages", async () => {
    await h.newUser();
    const all = ok(await h.get("/admin/clients", { user: h.admin }), AdminClientsResponseSchema);
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(all).toMatchObject({ current_page: 1, last_page: 1, per_page: all.total, from: 1, to: all.total, path: "/api/admin/clients", next_page_url: null });
    const first = ok(await h.get("/admin/clients", { user: h.admin, query: { limit: 1 } }), AdminClientsResponseSchema);
    expect(first).toMatchObject({ total: all.total, per_page: 1, last_page: all.total, from: 1, to: 1, data: [all.data[0]] });
    expect(first.next_page_url).toContain("page=2");
    const second = ok(await h.get("/admin/clients", { user: h.admin, query: { limit: 1, page: 2 } }), AdminClientsResponseSchema);
    expect(second.data).toEqual([all.data[1]]);
  });
});
