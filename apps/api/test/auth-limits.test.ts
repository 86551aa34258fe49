import { randomInt } from "node:crypto";
import { hasService, serviceUrls } from "@fleet/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiHarness, type Reply } from "./fixture.js";

/** A client address of its own per test run, so counts kept in a shared Redis never carry over. */
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const email = () => `limit-${randomInt(1e9)}@example.com`;

function login(h: ApiHarness, from: string, who: string, password = "wrong-Passw0rd"): Promise<Reply> {
  return h.inject({ method: "POST", url: "/api/login", remoteAddress: from, headers: { "content-type": "application/x-www-form-urlencoded" }, payload: new URLSearchParams({ email: who, password }).toString() });
}

function expectLimited(res: Reply): void {
  expect(res.status, res.text).toBe(429);
  expect(res.body).toEqual({ status: 0, error: expect.stringMatching(/^Too many attempts\. Try again in \d+ seconds\.$/) });
  expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
}

describe("sign-in attempts are limited", () => {
  const h = new ApiHarness("pglite");
  beforeAll(async () => {
    h.settings.authLimits = { perAddressPerMinute: 5, perEmailPerQuarterHour: 3 };
    await h.open();
  });
  afterAll(() => h.close());

  it("per client address: the sixth attempt in a minute gets 429 with Retry-After, another address still gets in", async () => {
    const from = address();
    for (let i = 0; i < 5; i++) expect((await login(h, from, email())).status).toBe(401);
    expectLimited(await login(h, from, email()));
    // Even the right password waits: the brake is on attempts, not on failures.
    expectLimited(await login(h, from, h.admin.email, h.admin.password));
    expect((await login(h, address(), h.admin.email, h.admin.password)).status).toBe(200);
  });

  it("per email: the fourth attempt on one email, from any address, gets 429; other emails are not held up", async () => {
    const target = email();
    for (let i = 0; i < 3; i++) expect((await login(h, address(), target)).status).toBe(401);
    expectLimited(await login(h, address(), target));
    expectLimited(await login(h, address(), target.toUpperCase()));
    expect((await login(h, address(), email())).status).toBe(401);
  });

  it("counts only failed logins: the right password signs in as often as it is sent", async () => {
    const from = address();
    for (let i = 0; i < 12; i++) expect((await login(h, from, h.admin.email, h.admin.password)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login(h, from, h.admin.email)).status).toBe(401);
    expectLimited(await login(h, from, h.admin.email, h.admin.password));
  });

  it("counts every attempt at the password reminder", async () => {
    const from = address();
    for (let i = 0; i < 5; i++) expect((await h.inject({ method: "GET", url: `/api/password_reminder?lang=en&email=${email()}`, remoteAddress: from })).status).toBe(200);
    expectLimited(await h.inject({ method: "GET", url: `/api/password_reminder?lang=en&email=${email()}`, remoteAddress: from }));
  });

  it("keeps login's failures apart from the reminders anyone may ask for an email", async () => {
    const user = await h.newUser();
    const remind = () => h.inject({ method: "GET", url: `/api/password_reminder?lang=en&email=${encodeURIComponent(user.email)}`, remoteAddress: address() });
    for (let i = 0; i < 3; i++) expect((await remind()).status).toBe(200);
    expectLimited(await remind());
    // The user mistypes once, then signs in.
    expect((await login(h, address(), user.email)).status).toBe(401);
    expect((await login(h, address(), user.email, user.password)).status).toBe(200);
  });

  it("does not limit signed-in requests", async () => {
    const user = await h.newUser();
    for (let i = 0; i < 12; i++) expect((await h.get("/get_user_data", { user })).status).toBe(200);
  });
});

// Needs the Redis server of infra/; without one this half is skipped and global setup prints why.
describe.runIf(hasService("redis"))("two api instances share the counts through Redis", () => {
  const a = new ApiHarness("pglite", { limitsRedisUrl: serviceUrls.redis });
  const b = new ApiHarness("pglite", { limitsRedisUrl: serviceUrls.redis });
  beforeAll(async () => {
    for (const h of [a, b]) h.settings.authLimits = { perAddressPerMinute: 4, perEmailPerQuarterHour: 100 };
    await Promise.all([a.open(), b.open()]);
  });
  afterAll(() => Promise.all([a.close(), b.close()]));

  it("failures counted on one instance count on the other", async () => {
    const from = address();
    for (const h of [a, b, a, b]) expect((await login(h, from, email())).status).toBe(401);
    // b counted the failure that used the limit up; a learns of it at the next failure it counts.
    expectLimited(await login(b, from, email()));
    expect((await login(a, from, email())).status).toBe(401);
    expectLimited(await login(a, from, email()));
  });
});
