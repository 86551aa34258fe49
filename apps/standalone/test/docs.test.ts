/*
 * Swagger UI, the health endpoints and the map images in the all-in-one process, over real HTTP: the API is
 * mounted there beside the ingest app, with the ingest server's options, so the page and
 * every asset it links are checked as a browser loads them, redirects followed.
 */
import { rm } from "node:fs/promises";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { fetchSwaggerUi, tempPglite } from "@fleet/testkit";
import { startStandalone, type Standalone } from "../src/main.js";

describe("Swagger UI and /health in the all-in-one process", () => {
  let dataDir: string;
  let fleet: Standalone;

  beforeAll(async () => {
    dataDir = (await tempPglite()).dataDir;
    const config = loadConfig(StandaloneEnvSchema, { DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", FLEET_ADMIN_EMAIL: "admin@docs.test", FLEET_ADMIN_PASSWORD: "docs-secret" });
    fleet = await startStandalone(config, pino({ level: "silent" }));
  });

  afterAll(async () => {
    await fleet?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("serves the page at /api/docs and /api/docs/, and every asset and the spec it loads answer 200", async () => {
    const get = async (p: string) => {
      const res = await fetch(new URL(p, fleet.url), { redirect: "manual" });
      return { status: res.status, location: res.headers.get("location") ?? undefined, body: await res.text() };
    };
    for (const start of ["/api/docs", "/api/docs/"]) {
      const ui = await fetchSwaggerUi(get, start);
      expect(ui.page).toBe("/api/docs/");
      expect(ui.fetched.map((f) => f.path)).toEqual(expect.arrayContaining(["/api/docs/static/swagger-ui.css", "/api/docs/static/swagger-ui-bundle.js", "/api/docs/json"]));
      for (const f of ui.fetched) expect(f.status, `${start} → ${f.path}`).toBe(200);
    }
  });

  it("answers /health (ingest's) and /api/health (the API's) with 200 {status: 1}", async () => {
    for (const p of ["/health", "/api/health"]) {
      const res = await fetch(new URL(p, fleet.url));
      expect([res.status, await res.json()], p).toEqual([200, { status: 1 }]);
    }
  });

  it("serves the catalogues' map images at the root, where vendor clients look, and under /api", async () => {
    for (const p of ["/images/device_icons/car.png", "/images/map_icons/1.png", "/assets/images/route_stop.png", "/api/images/map_icons/20.png"]) {
      const res = await fetch(new URL(p, fleet.url));
      const png = Buffer.from(await res.arrayBuffer());
      expect([res.status, res.headers.get("content-type"), png.subarray(1, 4).toString("latin1")], p).toEqual([200, "image/png", "PNG"]);
    }
    expect((await fetch(new URL("/images/map_icons/0.png", fleet.url))).status).toBe(404);
  });
});
