import { describe, expect, it } from "vitest";
import {
  ChangePasswordResponseSchema,
  EditSetupDataResponseSchema,
  EditSetupResponseSchema,
  GetDevicesLatestResponseSchema,
  GetDevicesResponseSchema,
  LoginResponseSchema,
  UserDataSchema,
  userClock,
  type EditSetupDataResponse,
} from "@fleet/contracts";
import { deviceGroups, findUserById } from "@fleet/db";
import { describeApi, failure, invalid, liveState, nextSecond, ok, wrongCredentials, type ApiHarness, type BodyEncoding, type FormFields, type TestUser } from "./fixture.js";

const FIX = Date.UTC(2025, 0, 15, 10, 20, 30);
const MASK = "********";
const ZERO_DATE = "0000-00-00 00:00:00";
// Timezone 65 is UTC+02:00.
const TZ_PLUS_2 = 65;

type Group = { id?: number | string; title: string };

/** A valid edit_setup body that keeps a new account as it is; override any field, drop one with undefined. */
function setupBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, groups: [], sms_gateway: 0, ...overrides };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/** The same body as form fields: `groups[0][id]`, `groups[0][title]`, and `groups=` for none. */
function formFields(body: Record<string, unknown>): FormFields {
  const { groups, ...rest } = body as { groups?: Group[] } & FormFields;
  const out: FormFields = { ...rest };
  if (groups?.length === 0) out.groups = "";
  groups?.forEach((g, i) => {
    if (g.id !== undefined) out[`groups[${i}][id]`] = g.id;
    out[`groups[${i}][title]`] = g.title;
  });
  return out;
}

async function setupData(h: ApiHarness, user: TestUser): Promise<EditSetupDataResponse> {
  return ok(await h.get("/edit_setup_data", { user }), EditSetupDataResponseSchema);
}

async function editSetup(h: ApiHarness, user: TestUser, body: Record<string, unknown>, as: BodyEncoding = "json") {
  return h.post("/edit_setup", { user, as, body: as === "json" ? body : formFields(body) });
}

async function saveSetup(h: ApiHarness, user: TestUser, overrides: Record<string, unknown>, as: BodyEncoding = "json"): Promise<void> {
  expect(ok(await editSetup(h, user, setupBody(overrides), as), EditSetupResponseSchema)).toEqual({ status: 1 });
}

/** The live list as group title → device ids. */
async function liveGroups(h: ApiHarness, user: TestUser): Promise<Record<string, number[]>> {
  const groups = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema);
  return Object.fromEntries(groups.map((g) => [g.title, g.items.map((i) => i.id)]));
}

async function latestIds(h: ApiHarness, user: TestUser, time?: number) {
  const res = ok(await h.get("/get_devices_latest", { user, ...(time === undefined ? {} : { query: { time } }) }), GetDevicesLatestResponseSchema);
  return { time: res.time, ids: res.items.map((i) => i.id).sort((a, b) => a - b), items: res.items };
}

async function newGroup(h: ApiHarness, user: TestUser, title: string): Promise<number> {
  const [g] = await h.db.insert(deviceGroups).values({ userId: user.id, title }).returning();
  return g!.id;
}

async function login(h: ApiHarness, email: string, password: string) {
  return h.post("/login", { lang: null, body: { email, password } });
}

describeApi("account and setup", (h) => {
  describe("edit_setup_data", () => {
    it("describes a new account with its secrets masked, and the option lists", async () => {
      const user = await h.newUser();
      const res = await h.get("/edit_setup_data", { user });
      const data = ok(res, EditSetupDataResponseSchema);
      expect(data.item).toMatchObject({
        id: user.id,
        active: 1,
        group_id: 2,
        manager_id: null,
        billing_plan_id: null,
        map_id: 1,
        devices_limit: null,
        email: user.email,
        password: MASK,
        api_hash: MASK,
        subscription_expiration: ZERO_DATE,
        loged_at: ZERO_DATE,
        sms_gateway_app_date: ZERO_DATE,
        available_maps: { "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9 },
        sms_gateway_params: { request_method: "get", authentication: "0", username: "", password: null, encoding: null },
        open_geofence_groups: '["0"]',
        open_device_groups: '["0"]',
        unit_of_distance: "km",
        unit_of_capacity: "lt",
        unit_of_altitude: "mt",
        lang: "en",
        timezone_id: "0",
        sms_gateway: "0",
        sms_gateway_url: "",
      });
      // Neither secret appears anywhere in the body.
      expect(res.text).not.toContain(user.hash);
      expect(res.text).not.toContain("scrypt$");
      expect(data.item.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

      const ids = (list: { id: unknown }[]) => list.map((o) => o.id);
      expect(ids(data.units_of_distance)).toEqual(["km", "mi"]);
      expect(ids(data.units_of_capacity)).toEqual(["lt", "gl"]);
      expect(ids(data.units_of_altitude)).toEqual(["mt", "ft"]);
      expect(ids(data.request_method_select)).toEqual(["get", "post", "app"]);
      expect(ids(data.authentication_select)).toEqual([0, 1]);
      expect(ids(data.encoding_select)).toEqual([0, "json"]);
      expect(ids(data.dst_types)).toEqual(["none", "exact", "automatic", "other"]);
      expect(ids(data.months)).toEqual(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]);
      expect(Object.keys(data.weekdays)).toEqual(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]);
      expect(Object.keys(data.week_pos)).toEqual(["first", "last"]);
      expect(data.timezones).toHaveLength(114);
      expect(data.timezones.slice(0, 2)).toEqual([
        { id: 0, value: "UTC (default)" },
        { id: 1, value: "UTC -14:00" },
      ]);
      expect(data.timezones.find((t) => t.id === TZ_PLUS_2)?.value).toBe("UTC +02:00");
      expect(data.dst_countries.length).toBeGreaterThan(0);
      expect(data).toMatchObject({ groups: [], sms_queue_count: 0, user_dst: null, status: 1 });
    });

    it("shows timestamps in the user's timezone", async () => {
      const expires = new Date(Date.UTC(2030, 5, 1, 23, 30, 0));
      const user = await h.newUser({ timezoneId: TZ_PLUS_2, expirationDate: expires });
      ok(await login(h, user.email, user.password), LoginResponseSchema);
      const item = (await setupData(h, user)).item;
      const row = (await findUserById(h.db, user.id))!;
      expect(item.subscription_expiration).toBe("2030-06-02 01:30:00");
      expect(item.created_at).toBe(userClock({ timezoneId: TZ_PLUS_2 }).format(row.createdAt.getTime()));
      expect(item.loged_at).toBe(userClock({ timezoneId: TZ_PLUS_2 }).format(row.logedAt!.getTime()));
      expect(item.timezone_id).toBe(String(TZ_PLUS_2));
    });

    it("is listed in the OpenAPI document with the other setup routes", async () => {
      const doc = (await h.inject({ method: "GET", url: "/api/docs/json" })).body as { paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>> };
      expect(Object.keys(doc.paths["/api/edit_setup_data"]!.get!.responses)).toEqual(expect.arrayContaining(["200", "401", "422"]));
      for (const path of ["/api/edit_setup", "/api/change_password"]) {
        const op = doc.paths[path]!.post!;
        expect(op.requestBody, path).toBeDefined();
        expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining(["200", "401", "422"]));
      }
    });

    it("answers 401 without a valid hash", async () => {
      failure(await h.get("/edit_setup_data", { hash: "nope" }), 401);
      failure(await h.post("/edit_setup", { hash: "nope", body: setupBody() }), 401);
      failure(await h.post("/change_password", { hash: "nope", body: { password: "whatever-1" } }), 401);
    });
  });

  describe("edit_setup", () => {
    it("saves the settings and shows them in edit_setup_data and in the live list at once", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      await h.live.putStates([{ state: liveState(device, { fixTime: FIX, speedKmh: 100, altitude: 100 }), userIds: [user.id] }]);
      await saveSetup(h, user, {
        unit_of_distance: "mi",
        unit_of_capacity: "gl",
        unit_of_altitude: "ft",
        timezone_id: TZ_PLUS_2,
        sms_gateway: 1,
        request_method: "post",
        encoding: "json",
        authentication: 1,
        username: "gw-user",
        password: "gw-secret",
        auth_id: "acct-1",
        auth_token: "token-1",
        senders_phone: "+37060000000",
        sms_gateway_url: "https://sms.example.com/send?to=%NUMBER%",
        week_start_day: 7,
        dst_type: "automatic",
        dst_country_id: 3,
      });

      const data = await setupData(h, user);
      expect(data.item).toMatchObject({
        unit_of_distance: "mi",
        unit_of_capacity: "gl",
        unit_of_altitude: "ft",
        timezone_id: String(TZ_PLUS_2),
        sms_gateway: "1",
        sms_gateway_url: "https://sms.example.com/send?to=%NUMBER%",
        sms_gateway_params: { request_method: "post", authentication: "1", username: "gw-user", password: null, encoding: "json" },
        week_start_day: 7,
      });
      expect(data.user_dst).toEqual({ type: "automatic", dst_country_id: 3 });
      // The gateway's secrets are stored, never shown.
      expect((await findUserById(h.db, user.id))!.smsGatewayParams).toMatchObject({ password: "gw-secret", auth_token: "token-1", auth_id: "acct-1", senders_phone: "+37060000000" });

      const item = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema)[0]!.items[0]!;
      expect(item).toMatchObject({ unit_of_distance: "mi", unit_of_capacity: "gl", unit_of_altitude: "ft", distance_unit_hour: "mph", speed: 62, altitude: 328, time: "2025-01-15 12:20:30" });
    });

    it("marks the user's devices changed for get_devices_latest when units or timezone change, not otherwise", async () => {
      const user = await h.newUser();
      const [a, b] = [await h.addDevice(user), await h.addDevice(user)];
      await nextSecond();
      const start = (await latestIds(h, user)).time;
      await saveSetup(h, user, {});
      expect((await latestIds(h, user, start)).ids).toEqual([]);
      await saveSetup(h, user, { unit_of_distance: "mi" });
      const after = await latestIds(h, user, start);
      expect(after.ids).toEqual([a, b].sort((x, y) => x - y));
      expect(after.items.every((i) => i.unit_of_distance === "mi")).toBe(true);
    });

    it("keeps the stored gateway secrets when they are sent empty or left out", async () => {
      const user = await h.newUser();
      await saveSetup(h, user, { sms_gateway: 1, request_method: "get", sms_gateway_url: "http://gw.example.com/", password: "gw-secret", auth_token: "tok" });
      await saveSetup(h, user, { sms_gateway: 1, request_method: "get", password: "", auth_token: "", username: "changed" });
      const stored = (await findUserById(h.db, user.id))!;
      expect(stored.smsGatewayParams).toMatchObject({ password: "gw-secret", auth_token: "tok", username: "changed" });
      expect(stored.smsGatewayUrl).toBe("http://gw.example.com/");
    });

    describe("daylight saving", () => {
      it("stores an exact rule, a rule by month and weekday (ids or positions), clears it with none and keeps it when dst_type is left out", async () => {
        const user = await h.newUser();
        await saveSetup(h, user, { dst_type: "exact", date_from: "2025-03-30 03:00", date_to: "2025-10-26T04:00:00Z" });
        expect((await setupData(h, user)).user_dst).toEqual({ type: "exact", date_from: "2025-03-30 03:00", date_to: "2025-10-26T04:00:00Z" });

        const other = { dst_type: "other", month_from: "march", week_pos_from: "last", week_day_from: "sunday", time_from: "03:00", month_to: 10, week_pos_to: 2, week_day_to: 7, time_to: "04:00:00" };
        await saveSetup(h, user, other);
        const expected = { type: "other", month_from: 3, week_pos_from: 2, week_day_from: 7, time_from: "03:00", month_to: 10, week_pos_to: 2, week_day_to: 7, time_to: "04:00:00" };
        expect((await setupData(h, user)).user_dst).toEqual(expected);

        await saveSetup(h, user, { unit_of_distance: "mi" });
        expect((await setupData(h, user)).user_dst).toEqual(expected);

        await saveSetup(h, user, { dst_type: "none" });
        expect((await setupData(h, user)).user_dst).toBeNull();
      });

      it.each([
        ["exact without dates", { dst_type: "exact" }, ["date_from", "date_to"]],
        ["exact ending before it starts", { dst_type: "exact", date_from: "2025-10-26 03:00", date_to: "2025-03-30 03:00" }, ["date_to"]],
        ["exact on a day that does not exist", { dst_type: "exact", date_from: "2025-02-30 03:00", date_to: "2025-10-26 03:00" }, ["date_from"]],
        ["exact with words for a date", { dst_type: "exact", date_from: "yesterday", date_to: "2025-10-26 03:00" }, ["date_from"]],
        ["other with its fields missing", { dst_type: "other", month_from: 3 }, ["week_pos_from", "week_day_from", "time_from", "month_to", "week_pos_to", "week_day_to", "time_to"]],
        ["other with a month 13 and an hour 25", { dst_type: "other", month_from: 13, week_pos_from: 1, week_day_from: 1, time_from: "25:00", month_to: 10, week_pos_to: 1, week_day_to: 1, time_to: "03:00" }, ["month_from", "time_from"]],
        ["automatic without a country", { dst_type: "automatic" }, ["dst_country_id"]],
        ["automatic with an unknown country", { dst_type: "automatic", dst_country_id: 999 }, ["dst_country_id"]],
        ["an unknown type", { dst_type: "sometimes" }, ["dst_type"]],
      ])("refuses %s", async (_label, fields, keys) => {
        const user = await h.newUser();
        const before = await setupData(h, user);
        const errors = invalid(await editSetup(h, user, setupBody({ unit_of_distance: "mi", ...fields })));
        expect(Object.keys(errors).sort()).toEqual([...keys].sort());
        expect(await setupData(h, user)).toEqual(before);
      });
    });

    describe("groups", () => {
      it("creates, renames and removes groups; devices of a removed group become ungrouped", async () => {
        const user = await h.newUser();
        const [vans, trucks] = [await newGroup(h, user, "Vans"), await newGroup(h, user, "Trucks")];
        const van = await h.addDevice(user, { group_id: vans });
        const truck = await h.addDevice(user, { group_id: trucks });
        const loose = await h.addDevice(user);
        await nextSecond();
        const start = (await latestIds(h, user)).time;

        await saveSetup(h, user, { groups: [{ id: vans, title: "  Light vans  " }, { title: "Cars" }, { id: 0, title: "Buses" }] });

        const groups = (await setupData(h, user)).groups;
        expect(groups.map((g) => g.title)).toEqual(["Light vans", "Cars", "Buses"]);
        expect(groups[0]!.id).toBe(vans);
        expect(groups.map((g) => g.id)).not.toContain(trucks);
        expect(await liveGroups(h, user)).toEqual({ Ungrouped: [loose, truck].sort((x, y) => x - y), "Light vans": [van] });
        // Both moved devices reach pollers; the untouched one does not.
        expect((await latestIds(h, user, start)).ids).toEqual([van, truck].sort((x, y) => x - y));

        await saveSetup(h, user, { groups: [] });
        expect((await setupData(h, user)).groups).toEqual([]);
        expect(await liveGroups(h, user)).toEqual({ Ungrouped: [van, truck, loose].sort((x, y) => x - y) });
      });

      it("refuses another user's group id, changes nothing, and never shows one user's groups to another", async () => {
        const [a, b] = [await h.newUser(), await h.newUser()];
        const aGroup = await newGroup(h, a, "A's secret group");
        const bGroup = await newGroup(h, b, "B's group");
        const aBefore = await setupData(h, a);
        const bBefore = await setupData(h, b);

        const errors = invalid(await editSetup(h, b, setupBody({ unit_of_distance: "mi", groups: [{ id: bGroup, title: "Renamed" }, { id: aGroup, title: "Mine now" }, { title: "New" }] })));
        expect(errors).toEqual({ "groups.1.id": "The selected groups.1.id is invalid." });

        expect(await setupData(h, a)).toEqual(aBefore);
        expect(await setupData(h, b)).toEqual(bBefore);
        expect(bBefore.groups).toEqual([{ id: bGroup, title: "B's group" }]);
        expect(JSON.stringify(bBefore)).not.toContain("secret");
      });

      it("refuses a group id given twice", async () => {
        const user = await h.newUser();
        const g = await newGroup(h, user, "One");
        const errors = invalid(await editSetup(h, user, setupBody({ groups: [{ id: g, title: "X" }, { id: g, title: "Y" }] })));
        expect(errors).toEqual({ "groups.1.id": "The groups.1.id field has a duplicate value." });
        expect((await setupData(h, user)).groups).toEqual([{ id: g, title: "One" }]);
      });

      it("stores injection-looking titles verbatim, harmlessly", async () => {
        const user = await h.newUser();
        const titles = ["'; drop table users; --", "Robert'); DROP TABLE device_groups;--", "<script>alert(1)</script>", "\" OR 1=1 --", "Žalgiris 🚚"];
        await saveSetup(h, user, { groups: titles.map((title) => ({ title })) });
        expect((await setupData(h, user)).groups.map((g) => g.title)).toEqual(titles);
        const device = await h.addDevice(user, { group_id: (await setupData(h, user)).groups[0]!.id });
        expect(await liveGroups(h, user)).toEqual({ [titles[0]!]: [device] });
        // The users table is still there and still works.
        ok(await login(h, user.email, user.password), LoginResponseSchema);
      });
    });

    describe("validation", () => {
      const long = "x".repeat(256);
      it.each<[string, Record<string, unknown>, string]>([
        ["an unknown unit of distance", { unit_of_distance: "parsec" }, "unit_of_distance"],
        ["an unknown unit of capacity", { unit_of_capacity: "barrel" }, "unit_of_capacity"],
        ["an unknown unit of altitude", { unit_of_altitude: "yd" }, "unit_of_altitude"],
        ["a missing unit of distance", { unit_of_distance: undefined }, "unit_of_distance"],
        ["a missing unit of capacity", { unit_of_capacity: undefined }, "unit_of_capacity"],
        ["a missing unit of altitude", { unit_of_altitude: undefined }, "unit_of_altitude"],
        ["a missing timezone", { timezone_id: undefined }, "timezone_id"],
        ["a timezone outside the catalogue", { timezone_id: 114 }, "timezone_id"],
        ["a negative timezone", { timezone_id: -1 }, "timezone_id"],
        ["a timezone that is not a number", { timezone_id: "Europe/Vilnius" }, "timezone_id"],
        ["a fractional timezone", { timezone_id: 1.5 }, "timezone_id"],
        ["missing groups", { groups: undefined }, "groups"],
        ["groups that are not a list of objects", { groups: [5] }, "groups.0"],
        ["a group without a title", { groups: [{ id: 0 }] }, "groups.0.title"],
        ["a blank group title", { groups: [{ title: "   " }] }, "groups.0.title"],
        ["an oversized group title", { groups: [{ title: long }] }, "groups.0.title"],
        ["a group id that is not a number", { groups: [{ id: "abc", title: "A" }] }, "groups.0.id"],
        ["a missing sms_gateway", { sms_gateway: undefined }, "sms_gateway"],
        ["an sms_gateway of 2", { sms_gateway: 2 }, "sms_gateway"],
        ["an unknown request method", { request_method: "telnet" }, "request_method"],
        ["an unknown encoding", { encoding: "xml" }, "encoding"],
        ["an authentication of 2", { authentication: 2 }, "authentication"],
        ["an oversized username", { username: long }, "username"],
        ["an oversized gateway password", { password: long }, "password"],
        ["an oversized senders phone", { senders_phone: long }, "senders_phone"],
        ["a gateway URL that is not http(s)", { sms_gateway_url: "javascript:alert(1)" }, "sms_gateway_url"],
        ["an oversized gateway URL", { sms_gateway_url: `https://x.example/${"a".repeat(2048)}` }, "sms_gateway_url"],
        ["an enabled HTTP gateway without a URL", { sms_gateway: 1, request_method: "get" }, "sms_gateway_url"],
        ["a gateway URL carrying a password", { sms_gateway: 1, request_method: "get", sms_gateway_url: "http://u:UrlSecret9@gw.example.com/x" }, "sms_gateway_url"],
        ["a week start day of 8", { week_start_day: 8 }, "week_start_day"],
        ["an injection string as a unit", { unit_of_distance: "'; drop table users; --" }, "unit_of_distance"],
      ])("refuses %s and changes nothing", async (_label, fields, key) => {
        const user = await h.newUser();
        const g = await newGroup(h, user, "Keep me");
        const before = await setupData(h, user);
        // Everything else in the body is a valid change, so "nothing changed" means something.
        const body = setupBody({ unit_of_capacity: "gl", timezone_id: 10, groups: [{ id: g, title: "Renamed" }, { title: "New" }], ...fields });
        const errors = invalid(await editSetup(h, user, body));
        expect(Object.keys(errors)).toContain(key);
        expect(await setupData(h, user)).toEqual(before);
      });

      it("reports every bad field at once", async () => {
        const user = await h.newUser();
        const errors = invalid(await editSetup(h, user, { unit_of_distance: "parsec", timezone_id: "x", groups: [{ title: "" }] }));
        expect(Object.keys(errors).sort()).toEqual(["groups.0.title", "sms_gateway", "timezone_id", "unit_of_altitude", "unit_of_capacity", "unit_of_distance"]);
      });

      it("answers a body that is not an object with 422, never a 5xx", async () => {
        const user = await h.newUser();
        for (const payload of ["[]", "null", '"text"', "42"]) {
          const res = await h.inject({ method: "POST", url: `/api/edit_setup?lang=en&user_api_hash=${user.hash}`, headers: { "content-type": "application/json" }, payload });
          expect(res.status, payload).toBeGreaterThanOrEqual(400);
          expect(res.status, payload).toBeLessThan(500);
        }
      });
    });

    describe("body encodings", () => {
      it.each<BodyEncoding>(["json", "form", "multipart"])("accepts a %s body, nested group fields included", async (as) => {
        const user = await h.newUser();
        const [keep, drop] = [await newGroup(h, user, "Keep"), await newGroup(h, user, "Drop")];
        await saveSetup(h, user, { unit_of_distance: "mi", timezone_id: "65", sms_gateway: "0", week_start_day: "7", groups: [{ id: keep, title: "Kept" }, { id: "", title: "Added" }] }, as);
        const data = await setupData(h, user);
        expect(data.item).toMatchObject({ unit_of_distance: "mi", timezone_id: "65", sms_gateway: "0", week_start_day: 7 });
        expect(data.groups.map((g) => g.title)).toEqual(["Kept", "Added"]);
        expect(data.groups.map((g) => g.id)).not.toContain(drop);
      });

      it.each<BodyEncoding>(["form", "multipart"])("takes an empty groups field in a %s body as no groups", async (as) => {
        const user = await h.newUser();
        await newGroup(h, user, "Gone");
        await saveSetup(h, user, { groups: [] }, as);
        expect((await setupData(h, user)).groups).toEqual([]);
      });

      it.each<BodyEncoding>(["form", "multipart"])("validates a %s body like JSON", async (as) => {
        const user = await h.newUser();
        const before = await setupData(h, user);
        const errors = invalid(await editSetup(h, user, setupBody({ unit_of_altitude: "yd", groups: [{ title: "New" }] }), as));
        expect(Object.keys(errors)).toEqual(["unit_of_altitude"]);
        expect(await setupData(h, user)).toEqual(before);
      });
    });
  });

  describe("change_password", () => {
    it.each<BodyEncoding>(["json", "form", "multipart"])("changes the password (%s body): the old hash and password stop working, a new login works", async (as) => {
      const user = await h.newUser();
      const res = await h.post("/change_password", { user, as, body: { password: "brand-new-pw", password_confirmation: "brand-new-pw" } });
      expect(ok(res, ChangePasswordResponseSchema)).toEqual({ status: 1 });

      failure(await h.get("/get_user_data", { user }), 401);
      wrongCredentials(await login(h, user.email, user.password));
      const hash = ok(await login(h, user.email, "brand-new-pw"), LoginResponseSchema).user_api_hash;
      expect(hash).not.toBe(user.hash);
      expect(ok(await h.get("/get_user_data", { hash }), UserDataSchema).email).toBe(user.email);
    });

    it("takes the password without a confirmation", async () => {
      const user = await h.newUser();
      ok(await h.post("/change_password", { user, body: { password: "no-confirm-pw" } }), ChangePasswordResponseSchema);
      ok(await login(h, user.email, "no-confirm-pw"), LoginResponseSchema);
    });

    it.each<[string, Record<string, unknown>]>([
      ["a missing password", {}],
      ["a password of 5 characters", { password: "12345" }],
      ["an oversized password", { password: "p".repeat(256) }],
      ["a password that is not a string", { password: { $ne: "" } }],
      ["a confirmation that does not match", { password: "brand-new-pw", password_confirmation: "brand-new-px" }],
    ])("refuses %s and changes nothing", async (_label, body) => {
      const user = await h.newUser();
      const errors = invalid(await h.post("/change_password", { user, body }));
      expect(Object.keys(errors)).toEqual(["password"]);
      expect(ok(await h.get("/get_user_data", { user }), UserDataSchema).email).toBe(user.email);
      expect(ok(await login(h, user.email, user.password), LoginResponseSchema).user_api_hash).toBe(user.hash);
    });
  });
});
