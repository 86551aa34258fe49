import { expect, it } from "vitest";
import { describeApi } from "./fixture.js";

/** Every route the API serves, as the OpenAPI document must list it. */
const ROUTES = [
  "post /login",
  "get /get_user_data",
  "get /add_device_data",
  "post /add_device",
  "get /get_devices",
  "get /get_devices_latest",
  "post /admin/client",
  "get /admin/clients",
  "get /admin/unregistered_devices",
];

describeApi("OpenAPI document", (h) => {
  it("is served at /api/docs/json and lists every route with its request and response schemas", async () => {
    const res = await h.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.status).toBe(200);
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown; parameters?: unknown[] }>> };
    expect(doc.openapi).toMatch(/^3\./);
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path.replace(/^\/api/, "")}`));
    for (const r of ROUTES) expect(listed).toContain(r);
    const add = doc.paths["/api/add_device"]!.post!;
    expect(add.requestBody).toBeDefined();
    expect(Object.keys(add.responses)).toEqual(expect.arrayContaining(["200", "401", "422"]));
    const latest = doc.paths["/api/get_devices_latest"]!.get!;
    expect(JSON.stringify(latest.parameters)).toContain('"time"');
  });

  it("serves Swagger UI at /api/docs", async () => {
    const res = await h.inject({ method: "GET", url: "/api/docs/" });
    expect(res.status).toBe(200);
    expect(res.text).toContain("swagger");
  });
});
