/*
 * A web page on another origin calling the API, as a browser does: the preflight, then the
 * call, each answer carrying what lets the page read it (or not, for an origin left out).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiHarness, type Reply, type TestUser } from "./fixture.js";

const APP = "https://app.example.com";

function preflight(h: ApiHarness, origin: string, headers: Record<string, string> = { "access-control-request-method": "POST", "access-control-request-headers": "content-type, user-api-hash" }): Promise<Reply> {
  return h.inject({ method: "OPTIONS", url: "/api/get_devices?lang=en", headers: { origin, ...headers } });
}

/** A harness whose API lets in `origins` (CORS_ORIGINS), opened for the block's tests. */
function harnessFor(origins: "*" | string[] | undefined) {
  const h = new ApiHarness("pglite");
  if (origins !== undefined) h.settings.corsOrigins = origins;
  beforeAll(() => h.open());
  afterAll(() => h.close());
  return h;
}

describe("CORS by default: any origin", () => {
  const h = harnessFor(undefined);
  let user: TestUser;
  beforeAll(async () => {
    user = await h.newUser();
  });

  it("answers a preflight with the methods and the headers the page asked for, and no credentials", async () => {
    const res = await preflight(h, APP);
    expect(res.status).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(String(res.headers["access-control-allow-methods"]).split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "POST", "PUT", "DELETE"]));
    expect(res.headers["access-control-allow-headers"]).toBe("content-type, user-api-hash");
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
  });

  it("answers a preflight that lacks its request headers all the same, not with a plain-text refusal", async () => {
    const res = await preflight(h, APP, {});
    expect(res.status).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
  });

  it("lets the page read an answer and a failure alike", async () => {
    const read = await h.get("/get_user_data", { user, headers: { origin: APP } });
    expect(read.status).toBe(200);
    expect(read.headers["access-control-allow-origin"]).toBe("*");
    const refused = await h.get("/get_user_data", { hash: "not-a-hash", headers: { origin: APP } });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ status: 0, error: "Unauthenticated." });
    expect(refused.headers["access-control-allow-origin"]).toBe("*");
  });
});

describe("CORS_ORIGINS naming origins", () => {
  const h = harnessFor([APP, "http://127.0.0.1:5173"]);
  let user: TestUser;
  beforeAll(async () => {
    user = await h.newUser();
  });

  it("lets in exactly the listed origins", async () => {
    const listed = await h.get("/get_user_data", { user, headers: { origin: "http://127.0.0.1:5173" } });
    expect(listed.status).toBe(200);
    expect(listed.headers["access-control-allow-origin"]).toBe("http://127.0.0.1:5173");
    expect(String(listed.headers.vary)).toMatch(/origin/i);
    expect((await preflight(h, APP)).headers["access-control-allow-origin"]).toBe(APP);

    const other = await h.get("/get_user_data", { user, headers: { origin: "https://evil.example.com" } });
    expect(other.status).toBe(200);
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    expect((await preflight(h, "https://app.example.com.evil.example.com")).headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("CORS_ORIGINS=none", () => {
  const h = harnessFor([]);

  it("sends no CORS header, and a preflight finds no route", async () => {
    const user = await h.newUser();
    const read = await h.get("/get_user_data", { user, headers: { origin: APP } });
    expect(read.status).toBe(200);
    expect(read.headers["access-control-allow-origin"]).toBeUndefined();
    const res = await preflight(h, APP);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 0, error: "No route OPTIONS /api/get_devices." });
  });
});
