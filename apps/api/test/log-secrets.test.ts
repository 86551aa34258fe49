import { Writable } from "node:stream";
import { createLogger } from "@fleet/logging";
import { LoginResponseSchema, SharingResponseSchema } from "@fleet/contracts";
import { issuePasswordReset } from "@fleet/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiHarness, deviceFields, ok, type Reply } from "./fixture.js";

/*
 * What an operator reading the logs must never find: a user's api hash (from the query, a
 * body or the header), a password (login, change_password), a new password, or a sharing
 * link's hash (the credential of its public view). The app logs
 * through the apps' own logger at its most verbose level into a buffer the test reads.
 */
describe("log lines hold no secret", () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString("utf8"));
      done();
    },
  });
  const h = new ApiHarness("pglite", { logger: createLogger({ name: "api", level: "trace", destination }) });
  beforeAll(() => h.open());
  afterAll(() => h.close());

  it("after a login, requests signed in each way, a failed one, a password change and a reminder's code", async () => {
    const user = await h.newUser({ password: "first-Passw0rd" });
    const login = ok(await h.post("/login", { body: { email: user.email, password: "first-Passw0rd" }, as: "form" }), LoginResponseSchema);
    const hash = login.user_api_hash;
    const sharing = ok(await h.post("/sharing", { hash, body: { name: "Customer" } }), SharingResponseSchema);
    const seen: Reply[] = [
      await h.inject({ method: "GET", url: "/api/shared_devices", query: { token: sharing.hash } }),
      await h.get("/get_devices", { hash, hashIn: "query" }),
      await h.get("/get_devices", { hash, hashIn: "header" }),
      await h.post("/add_device", { hash, hashIn: "body", body: deviceFields(), as: "form" }),
      await h.get("/get_devices", { hash: `${hash}x`, hashIn: "query" }),
      // A client that left out the "?": a 404 whose path still carries the working hash.
      await h.inject({ method: "GET", url: `/api/get_devices&lang=en&user_api_hash=${hash}` }),
      await h.post("/login", { body: { email: user.email, password: "wrong-Passw0rd" }, as: "form" }),
      await h.post("/change_password", { hash, hashIn: "body", body: { password: "second-Passw0rd", password_confirmation: "second-Passw0rd" }, as: "form" }),
    ];
    // A reminder's code in the query, as a client following the mail's instructions may send it.
    const { token: code } = (await issuePasswordReset(h.db, user.email, 60_000))!;
    const password = "third-Passw0rd";
    seen.push(await h.inject({ method: "POST", url: "/api/password_reminder", query: { email: user.email, code, password, password_confirmation: password } }));
    expect(seen.map((r) => r.status)).toEqual([200, 200, 200, 200, 401, 404, 401, 200, 200]);

    const text = lines.join("");
    // The test would be empty if nothing were logged: every request left its line.
    expect(text.match(/"msg":"request"/g)?.length ?? 0).toBeGreaterThanOrEqual(seen.length + 1);
    expect(text).toContain("user_api_hash=[redacted]");
    expect(text).toContain("token=[redacted]");
    expect(text).toContain("code=[redacted]");
    for (const secret of [hash, sharing.hash, "first-Passw0rd", "wrong-Passw0rd", "second-Passw0rd", user.apiHash, code, password]) expect(text).not.toContain(secret);
  });
});
