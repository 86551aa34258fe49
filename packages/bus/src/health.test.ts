import { afterEach, describe, expect, it } from "vitest";
import { serveHealth, type HealthServer, type HealthState } from "./health.js";

describe("serveHealth", () => {
  let server: HealthServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("answers GET /health 200 while up, 503 naming the state otherwise, 404 for anything else", async () => {
    let state: HealthState = "starting";
    server = await serveHealth({ name: "the tracker", host: "127.0.0.1", port: 0, state: () => state });
    const get = async (path: string, method = "GET") => {
      const res = await fetch(server!.url + path, { method });
      return [res.status, res.headers.get("content-type"), method === "HEAD" ? await res.text() : await res.json()];
    };
    expect(await get("/health")).toEqual([503, "application/json; charset=utf-8", { status: 0, error: "The tracker is starting." }]);
    state = "up";
    expect(await get("/health")).toEqual([200, "application/json; charset=utf-8", { status: 1 }]);
    expect(await get("/health?probe=1")).toEqual([200, "application/json; charset=utf-8", { status: 1 }]);
    expect(await get("/health", "HEAD")).toEqual([200, "application/json; charset=utf-8", ""]);
    expect(await get("/")).toEqual([404, "application/json; charset=utf-8", { status: 0, error: "No route GET /." }]);
    expect(await get("/health", "POST")).toEqual([404, "application/json; charset=utf-8", { status: 0, error: "No route POST /health." }]);
    state = "stopping";
    expect(await get("/health")).toEqual([503, "application/json; charset=utf-8", { status: 0, error: "The tracker is stopping." }]);
  });

  it("fails to start on a port in use, and frees its port on close", async () => {
    server = await serveHealth({ name: "the rules service", host: "127.0.0.1", port: 0, state: () => "up" });
    const port = Number(new URL(server.url).port);
    await expect(serveHealth({ name: "a second one", host: "127.0.0.1", port, state: () => "up" })).rejects.toThrow(/EADDRINUSE/);
    await server.close();
    server = await serveHealth({ name: "the rules service", host: "127.0.0.1", port, state: () => "up" });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
