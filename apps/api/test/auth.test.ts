import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { AddDeviceResponseSchema, LoginResponseSchema, SupportedLangs, UserDataSchema } from "@fleet/contracts";
import { findUserById } from "@fleet/db";
import { ensureAdmin } from "../src/index.js";
import { ADMIN, describeApi, deviceFields, failure, invalid, ok, wrongCredentials, type BodyEncoding } from "./fixture.js";

const DAY_MS = 86_400_000;

describeApi("auth", (h) => {
  describe("login", () => {
    it.each<BodyEncoding>(["json", "form", "multipart"])("exchanges email and password for the user's api hash (%s body)", async (as) => {
      const user = await h.newUser();
      const res = await h.post("/login", { lang: null, as, body: { email: user.email, password: user.password } });
      expect(ok(res, LoginResponseSchema)).toEqual({ status: 1, user_api_hash: user.hash });
      // The hash it returned is the one that authenticates.
      expect(ok(await h.get("/get_user_data", { hash: user.hash }), UserDataSchema).email).toBe(user.email);
    });

    it("signs an administrator in as another user with `as`; anyone else's `as` is ignored", async () => {
      const user = await h.newUser();
      const asUser = await h.post("/login", { body: { email: ADMIN.email, password: ADMIN.password, as: user.email.toUpperCase() } });
      expect(ok(asUser, LoginResponseSchema)).toEqual({ status: 1, user_api_hash: user.hash });
      // An empty `as` is an ordinary sign-in.
      expect(ok(await h.post("/login", { body: { email: ADMIN.email, password: ADMIN.password, as: "" } }), LoginResponseSchema).user_api_hash).toBe(h.admin.hash);
      const other = await h.newUser();
      expect(ok(await h.post("/login", { body: { email: other.email, password: other.password, as: user.email } }), LoginResponseSchema).user_api_hash).toBe(other.hash);
      // The credentials are checked first: a wrong password is the usual refusal, whatever `as` says.
      wrongCredentials(await h.post("/login", { body: { email: ADMIN.email, password: "not-the-password", as: user.email } }));
      expect(invalid(await h.post("/login", { body: { email: ADMIN.email, password: ADMIN.password, as: "nobody-at-all@example.com" } }))).toEqual({ as: "No user who may sign in has this email." });
      // Nor as a user who may not sign in.
      expect((await h.post("/admin/client/status", { user: h.admin, body: { id: user.id, status: false } })).status).toBe(200);
      expect(Object.keys(invalid(await h.post("/login", { body: { email: ADMIN.email, password: ADMIN.password, as: user.email } })))).toEqual(["as"]);
    });

    it("makes the language the user signs in with the account's, for its alert messages and mail", async () => {
      const user = await h.newUser();
      const langOf = async () => (await findUserById(h.db, user.id))!.lang;
      expect(await langOf()).toBe("en");
      ok(await h.post("/login", { lang: "lt", body: { email: user.email, password: user.password } }), LoginResponseSchema);
      expect(await langOf()).toBe("lt");
      // A language the API does not speak, none, or a refused sign-in leaves it.
      ok(await h.post("/login", { lang: "xx", body: { email: user.email, password: user.password } }), LoginResponseSchema);
      ok(await h.post("/login", { lang: null, body: { email: user.email, password: user.password } }), LoginResponseSchema);
      wrongCredentials(await h.post("/login", { lang: "de", body: { email: user.email, password: "not-the-password" } }));
      expect(await langOf()).toBe("lt");
      ok(await h.post("/login", { lang: null, as: "form", body: { email: user.email, password: user.password, lang: "de" } }), LoginResponseSchema);
      expect(await langOf()).toBe("de");
    });

    it("compares emails case-insensitively", async () => {
      const user = await h.newUser();
      const res = await h.post("/login", { body: { email: `  ${user.email.toUpperCase()} `, password: user.password } });
      expect(ok(res, LoginResponseSchema).user_api_hash).toBe(user.hash);
    });

    it("lets the bootstrap administrator log in, and creates it only once", async () => {
      expect(await ensureAdmin(h.db, ADMIN.email, "another-password")).toEqual({ created: false });
      const res = await h.post("/login", { body: { email: ADMIN.email, password: ADMIN.password } });
      expect(ok(res, LoginResponseSchema).user_api_hash).toBe(h.admin.hash);
      wrongCredentials(await h.post("/login", { body: { email: ADMIN.email, password: "another-password" } }));
    });

    it("answers a wrong password and an unknown email alike: 401 Wrong credentials.", async () => {
      const user = await h.newUser();
      wrongCredentials(await h.post("/login", { body: { email: user.email, password: "not-the-password" } }));
      wrongCredentials(await h.post("/login", { as: "multipart", body: { email: "nobody@example.com", password: user.password } }));
    });

    it("refuses inactive and expired accounts, at login and by hash", async () => {
      const inactive = await h.newUser({ active: false });
      const expired = await h.newUser({ expirationDate: new Date(Date.now() - 60_000) });
      for (const u of [inactive, expired]) {
        wrongCredentials(await h.post("/login", { body: { email: u.email, password: u.password } }));
        failure(await h.get("/get_user_data", { user: u }), 401);
      }
    });

    it("names missing fields with 422", async () => {
      expect(invalid(await h.post("/login", { body: { password: "x" } }))).toEqual({ email: "The email field is required." });
      expect(invalid(await h.post("/login", { as: "form", body: { email: "a@example.com" } }))).toEqual({ password: "The password field is required." });
      expect(Object.keys(invalid(await h.post("/login", { body: {} }))).sort()).toEqual(["email", "password"]);
      expect(invalid(await h.post("/login", { body: { email: "", password: "x" } }))).toHaveProperty("email");
      expect(invalid(await h.post("/login", { body: { email: `${"a".repeat(300)}@example.com`, password: "x" } }))).toHaveProperty("email");
    });

    it("refuses an email or password with control characters or a lone surrogate with 422 naming it", async () => {
      const user = await h.newUser();
      // PostgreSQL refused the NUL with a 500 ("invalid byte sequence 0x00") before.
      for (const as of ["json", "form", "multipart"] as const) {
        expect(invalid(await h.post("/login", { as, body: { email: `${user.email}\u0000`, password: user.password } })), as).toEqual({ email: "The email contains control characters or invalid Unicode." });
      }
      expect(invalid(await h.post("/login", { body: { email: user.email, password: `${user.password}\ud800` } }))).toEqual({ password: "The password contains control characters or invalid Unicode." });
      // The same login without them still works.
      ok(await h.post("/login", { body: { email: user.email, password: user.password } }), LoginResponseSchema);
    });
  });

  describe("authentication", () => {
    it("takes user_api_hash from the query, the header or the body", async () => {
      const user = await h.newUser();
      expect(ok(await h.get("/get_user_data", { user, hashIn: "query" }), UserDataSchema).email).toBe(user.email);
      expect(ok(await h.get("/get_user_data", { user, hashIn: "header" }), UserDataSchema).email).toBe(user.email);
      for (const as of ["json", "form", "multipart"] as const) {
        const res = await h.post("/add_device", { user, hashIn: "body", as, body: deviceFields() });
        expect(ok(res, AddDeviceResponseSchema).status).toBe(1);
      }
    });

    it("takes lang from the body too", async () => {
      const user = await h.newUser();
      const res = await h.post("/add_device", { user, lang: null, as: "multipart", body: { ...deviceFields(), lang: "en" } });
      ok(res, AddDeviceResponseSchema);
    });

    it("answers a missing, empty or unsupported lang with 400 No language selected.", async () => {
      const user = await h.newUser();
      for (const lang of [null, "", "xx", "english"]) {
        expect(failure(await h.get("/get_user_data", { user, lang }), 400)).toBe("No language selected.");
      }
      expect(failure(await h.get("/get_devices", { user, lang: "klingon" }), 400)).toBe("No language selected.");
      // The language is checked first, as the spec's only shown failure.
      expect(failure(await h.get("/get_user_data", { lang: null }), 400)).toBe("No language selected.");
      // Every supported language passes.
      for (const lang of SupportedLangs) ok(await h.get("/get_user_data", { user, lang }), UserDataSchema);
    });

    it("answers a missing or unknown hash with 401", async () => {
      const user = await h.newUser();
      for (const path of ["/get_user_data", "/get_devices", "/get_devices_latest", "/add_device_data", "/admin/clients"]) {
        expect(failure(await h.get(path), 401)).toBeTruthy();
        expect(failure(await h.get(path, { hash: "0".repeat(64) }), 401)).toBeTruthy();
        expect(failure(await h.get(path, { hash: `${user.hash.slice(0, -1)}x` }), 401)).toBeTruthy();
      }
      failure(await h.get("/get_user_data", { hash: "x".repeat(5000) }), 401);
      failure(await h.post("/add_device", { body: deviceFields() }), 401);
    });

    it("refuses a hash or a lang with control characters or a lone surrogate with 422, before looking the hash up", async () => {
      const user = await h.newUser();
      const refused = (field: string) => ({ [field]: `The ${field.replaceAll("_", " ")} contains control characters or invalid Unicode.` });
      // PostgreSQL refused this hash with a 500 ("invalid byte sequence 0x00") before.
      expect(invalid(await h.inject({ method: "GET", url: "/api/get_user_data?lang=en&user_api_hash=%00" }))).toEqual(refused("user_api_hash"));
      expect(invalid(await h.get("/get_user_data", { hash: `${user.hash}\u0000` }))).toEqual(refused("user_api_hash"));
      expect(invalid(await h.get("/get_user_data", { user, lang: "e\u0001n" }))).toEqual(refused("lang"));
      // A lone surrogate survives only a JSON body's escape; a URL carries it as U+FFFD.
      expect(invalid(await h.post("/add_device", { hash: `${user.hash}\ud800`, hashIn: "body", body: deviceFields() }))).toEqual(refused("user_api_hash"));
      expect(invalid(await h.post("/add_device", { user, lang: null, body: { ...deviceFields(), lang: "en\udfff" } }))).toEqual(refused("lang"));
    });

    it("never sees a control character in the user-api-hash header: Node's HTTP parser answers 400 first", async () => {
      // inject() hands headers over as they are; only a real connection goes through the parser.
      const server = h.app.server;
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const { port } = server.address() as AddressInfo;
        for (const c of ["\u0000", "\u0001", "\u001f", "\u007f"]) {
          const head = await new Promise<string>((resolve, reject) => {
            const socket = connect(port, "127.0.0.1", () => socket.end(Buffer.from(`GET /api/get_user_data?lang=en HTTP/1.1\r\nhost: x\r\nuser-api-hash: ab${c}cd\r\n\r\n`, "latin1")));
            let got = "";
            socket.on("data", (chunk: Buffer) => (got += chunk.toString("latin1")));
            socket.on("close", () => resolve(got.split("\r\n")[0]!));
            socket.on("error", reject);
          });
          expect(head, JSON.stringify(c)).toBe("HTTP/1.1 400 Bad Request");
        }
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe("get_user_data", () => {
    it("describes an unlimited, non-expiring account", async () => {
      const user = await h.newUser();
      const res = await h.get("/get_user_data", { user });
      expect(ok(res, UserDataSchema)).toEqual({
        email: user.email,
        expiration_date: null,
        days_left: null,
        plan: "Standard",
        devices_limit: 0,
        group_id: 2,
      });
      // The spec: get_user_data is one of the two success bodies without `status`.
      expect(res.body).not.toHaveProperty("status");
    });

    it("shows an expiring account's date in the user's timezone and the days left", async () => {
      // 10 days minus an hour away: days_left rounds the part day up.
      const expires = new Date(Math.floor((Date.now() + 10 * DAY_MS - 3_600_000) / 1000) * 1000);
      const user = await h.newUser({ expirationDate: expires, devicesLimit: 3, timezoneId: 65 });
      const data = ok(await h.get("/get_user_data", { user }), UserDataSchema);
      // Timezone 65 is UTC+02:00.
      const local = new Date(expires.getTime() + 2 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
      expect(data).toEqual({ email: user.email, expiration_date: local, days_left: 10, plan: "Standard", devices_limit: 3, group_id: 2 });
    });

    it("tells an administrator apart", async () => {
      const data = ok(await h.get("/get_user_data", { user: h.admin }), UserDataSchema);
      expect(data).toMatchObject({ email: h.admin.email, group_id: 1, devices_limit: 0 });
      expect(data.plan).not.toBe("Standard");
    });
  });
});
