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
  "get /edit_setup_data",
  "post /edit_setup",
  "post /change_password",
  "get /edit_device_data",
  "post /edit_device",
  "get /destroy_device",
  "get /change_active_device",
  "get /get_user_drivers",
  "get /add_user_driver_data",
  "post /add_user_driver",
  "get /edit_user_driver_data",
  "post /edit_user_driver",
  "get /destroy_user_driver",
  "get /add_sensor_data",
  "post /add_sensor",
  "get /edit_sensor_data",
  "post /edit_sensor",
  "get /destroy_sensor",
  "get /get_sensors",
  "get /add_service_data",
  "post /add_service",
  "get /edit_service_data",
  "post /edit_service",
  "get /destroy_service",
  "get /get_services",
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
