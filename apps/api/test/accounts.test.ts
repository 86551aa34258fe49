import { createSmtpMailer } from "@fleet/mail";
import { issuePasswordReset, passwordResets, tokenHash } from "@fleet/db";
import { LoginResponseSchema, PasswordReminderResponseSchema, RegisterResponseSchema } from "@fleet/contracts";
import { smtpTestServer, type SmtpTestServer } from "@fleet/testkit";
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiHarness, invalid, ok, wrongCredentials, type Reply } from "./fixture.js";
import { vendorErrors } from "./swagger.js";

const PUBLIC_URL = "https://fleet.example.test";
const newEmail = () => `acct-${randomInt(1e9)}@example.com`;

/** The link and the code a mail carries. */
function linkOf(text: string): { url: URL; code: string } {
  const link = text.match(/https:\/\/fleet\.example\.test\/api\/password_reset\?\S+/)?.[0];
  const code = text.match(/code in your app: (\S+)/)?.[1];
  if (!link || !code) throw new Error(`no link or code in the mail:\n${text}`);
  return { url: new URL(link), code };
}

describe("sign-up and password reminders, mailed through a real SMTP server", () => {
  let smtp: SmtpTestServer;
  let h: ApiHarness;
  const refused = "nobody-here@example.com";

  beforeAll(async () => {
    smtp = await smtpTestServer({ refuse: [refused] });
    const logger = { info: () => undefined, warn: () => undefined };
    h = new ApiHarness("pglite", { mailer: createSmtpMailer({ url: smtp.url, from: "Fleet <no-reply@fleet.test>", logger }) });
    h.settings.publicUrl = PUBLIC_URL;
    h.settings.allowRegistration = true;
    // These tests make many attempts from one address.
    h.settings.authLimits = { perAddressPerMinute: 1000, perEmailPerQuarterHour: 1000 };
    await h.open();
  });
  afterAll(async () => {
    await h.close();
    await smtp.close();
  });

  const login = (email: string, password: string) => h.post("/login", { body: { email, password }, as: "form" });
  const form = (url: string, fields: Record<string, string>): Promise<Reply> =>
    h.inject({ method: "POST", url, headers: { "content-type": "application/x-www-form-urlencoded" }, payload: new URLSearchParams(fields).toString() });

  it("refuses sign-up while FLEET_ALLOW_REGISTRATION is off, with a clear error", async () => {
    h.settings.allowRegistration = false;
    try {
      const res = await h.post("/register", { body: { email: newEmail() } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ status: 0, error: "Sign-up is closed on this server. Ask an administrator for an account." });
    } finally {
      h.settings.allowRegistration = true;
    }
  });

  it("signs up: a mail with a link whose page sets the password, after which the user logs in", async () => {
    const email = newEmail();
    const res = ok(await h.post("/register", { body: { email }, as: "form" }), RegisterResponseSchema);
    expect(res.message).toContain(email);
    expect(res.email).toBe(email);
    expect(vendorErrors("/register", res, "post")).toEqual([]);

    const mail = await smtp.mailTo(email);
    expect(mail.subject).toBe("Welcome to Fleet: choose your password");
    const { url } = linkOf(mail.text);
    const page = await h.inject({ method: "GET", url: `${url.pathname}${url.search}` });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.text).toContain('<form method="post" action="password_reset">');
    expect(page.text).toContain(email);

    const done = await form("/api/password_reset", { email, token: url.searchParams.get("token")!, password: "chosen-Passw0rd", password_confirmation: "chosen-Passw0rd" });
    expect(done.status).toBe(200);
    expect(done.text).toContain("Your password has been changed");
    ok(await login(email, "chosen-Passw0rd"), LoginResponseSchema);
    // The link worked once.
    const again = await form("/api/password_reset", { email, token: url.searchParams.get("token")!, password: "other-Passw0rd", password_confirmation: "other-Passw0rd" });
    expect(again.status).toBe(422);
    expect(again.text).toContain("This link cannot be used");
  });

  it("signs up an email typed with blanks around it as the address without them", async () => {
    const email = newEmail();
    const res = ok(await h.post("/register", { body: { email: ` ${email.toUpperCase()} ` }, as: "form" }), RegisterResponseSchema);
    expect(res.email).toBe(email);
    expect((await smtp.mailTo(email)).text).toContain(email);
    expect(invalid(await h.post("/register", { body: { email } }))).toEqual({ email: "The email has already been taken." });
  });

  it("refuses a second sign-up of one email, and keeps no account whose mail could not be sent", async () => {
    const email = newEmail();
    ok(await h.post("/register", { body: { email } }), RegisterResponseSchema);
    expect(invalid(await h.post("/register", { body: { email: email.toUpperCase() } }))).toEqual({ email: "The email has already been taken." });

    const res = await h.post("/register", { body: { email: refused } });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ status: 0, error: "The sign-up mail could not be sent. Try again later." });
    // Not half-written: the same email can try again once mail works.
    expect(await issuePasswordReset(h.db, refused, 60_000)).toBeUndefined();
  });

  it("answers a reminder the same for an unknown email, and mails only a known one", async () => {
    const user = await h.newUser();
    const unknown = newEmail();
    const forKnown = ok(await h.get("/password_reminder", { query: { email: user.email } }), PasswordReminderResponseSchema);
    const forUnknown = ok(await h.get("/password_reminder", { query: { email: unknown } }), PasswordReminderResponseSchema);
    // Each echoes the address it was asked about (the vendor's answer requires `email`) and nothing else tells them apart.
    expect([forKnown.email, forUnknown.email]).toEqual([user.email, unknown]);
    expect({ ...forUnknown, email: user.email }).toEqual(forKnown);
    expect(vendorErrors("/password_reminder", forUnknown)).toEqual([]);
    await smtp.mailTo(user.email);
    // POST with only an email is the same request.
    const posted = ok(await h.post("/password_reminder", { body: { email: unknown } }), PasswordReminderResponseSchema);
    expect(vendorErrors("/password_reminder", posted, "post")).toEqual([]);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.filter((m) => m.to.includes(unknown))).toEqual([]);
  });

  it("resets with the mailed code: the old api hash stops working, the code works once, only the newest is good", async () => {
    const user = await h.newUser();
    expect((await h.get("/get_user_data", { user })).status).toBe(200);

    ok(await h.get("/password_reminder", { query: { email: user.email } }), PasswordReminderResponseSchema);
    const first = linkOf((await smtp.mailTo(user.email)).text);
    ok(await h.get("/password_reminder", { query: { email: user.email } }), PasswordReminderResponseSchema);
    const second = linkOf((await smtp.mailTo(user.email, { skip: 1 })).text);

    const set = (code: string, password: string) => h.post("/password_reminder", { body: { email: user.email, code, password, password_confirmation: password } });
    expect(invalid(await set(first.code, "new-Passw0rd"))).toEqual({ code: "The code is wrong, used already or expired. Ask for a new reminder." });
    const changed = ok(await set(second.code, "new-Passw0rd"), PasswordReminderResponseSchema);
    expect(vendorErrors("/password_reminder", changed, "post")).toEqual([]);
    expect((await h.get("/get_user_data", { user })).status).toBe(401);
    wrongCredentials(await login(user.email, user.password));
    ok(await login(user.email, "new-Passw0rd"), LoginResponseSchema);
    expect(invalid(await set(second.code, "third-Passw0rd"))).toEqual({ code: "The code is wrong, used already or expired. Ask for a new reminder." });
  });

  it("stores only a token's hash, refuses it after it expires, and only with its own email", async () => {
    const user = await h.newUser();
    const other = await h.newUser();
    const issued = (await issuePasswordReset(h.db, user.email, 60_000))!;
    const rows = await h.db.select().from(passwordResets);
    expect(rows.some((r) => r.tokenHash === issued.token)).toBe(false);
    expect(rows.some((r) => r.tokenHash === tokenHash(issued.token))).toBe(true);

    const set = (email: string, code: string) => h.post("/password_reminder", { body: { email, code, password: "x-Passw0rd-1" } });
    expect((await set(other.email, issued.token)).status).toBe(422);
    const expired = (await issuePasswordReset(h.db, user.email, -1))!;
    expect((await set(user.email, expired.token)).status).toBe(422);
    wrongCredentials(await login(user.email, "x-Passw0rd-1"));
  });
});
