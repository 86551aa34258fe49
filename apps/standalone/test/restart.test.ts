import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { tempPglite, waitFor } from "@fleet/testkit";
import { startStandalone, type Standalone } from "../src/main.js";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "../../..");
const admin = { FLEET_ADMIN_EMAIL: "root@restart.test", FLEET_ADMIN_PASSWORD: "restart-secret" };

/** `pnpm fleet ...` as a user types it, against the running server. */
async function fleetCli(url: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ["--conditions=@fleet/source", "--import", "tsx", "apps/cli/src/main.ts", ...args], {
    cwd: repoRoot,
    env: { ...process.env, FLEET_URL: url, FLEET_EMAIL: admin.FLEET_ADMIN_EMAIL, FLEET_PASSWORD: admin.FLEET_ADMIN_PASSWORD },
  });
  return stdout;
}

describe("embedded mode across a restart, driven by the CLI", () => {
  let dataDir: string;
  let fleet: Standalone | undefined;
  const start = async () => {
    const config = loadConfig(StandaloneEnvSchema, { DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", TRACKER_FLUSH_MS: "100", ...admin });
    fleet = await startStandalone(config, pino({ level: "silent" }));
    return fleet;
  };

  beforeAll(async () => {
    dataDir = (await tempPglite()).dataDir;
  });
  afterAll(async () => {
    await fleet?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps users, devices, history and live state in DATA_DIR", async () => {
    let f = await start();
    expect(f.admin.created).toBe(true);
    expect(await fleetCli(f.url, "user", "add", "--email", "ops@restart.test", "--password", "ops-secret")).toMatch(/created user \d+ ops@restart.test/);
    expect(await fleetCli(f.url, "device", "add", "--name", "Van 9", "--imei", "restart-9")).toMatch(/created device \d+ \(restart-9\)/);
    const fix = { uniqueId: "restart-9", protocol: "osmand", latitude: "54.7", longitude: "25.3", altitude: "1", speed: "10", course: "1", fixTime: String(Date.now() - 1000) };
    expect(await (await fetch(`${f.url}/insert.php?${new URLSearchParams(fix)}`)).json()).toEqual({ status: 1 });
    expect(await (await fetch(`${f.url}/insert.php?${new URLSearchParams({ ...fix, uniqueId: "stranger-1" })}`)).json()).toEqual({ status: 1 });
    await waitFor("the position in history", async () => (await f.history.count()) === 1, 30_000, 200);
    await waitFor("the stranger counted", async () => (await fleetCli(f.url, "unregistered")).includes("stranger-1"), 30_000, 200);

    await f.close();
    fleet = undefined;
    f = await start();
    // Second start: the administrator exists already and is left alone.
    expect(f.admin.created).toBe(false);
    expect(await f.history.count()).toBe(1);
    expect(await fleetCli(f.url, "user", "list")).toContain("ops@restart.test");
    const devices = await fleetCli(f.url, "device", "list");
    expect(devices).toMatch(/restart-9\tVan 9\t\w+\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\t54.7,25.3/);
    expect(await fleetCli(f.url, "unregistered")).toMatch(/stranger-1\tosmand\t1 positions/);
  }, 120_000);

  it("handles every position it acknowledged before a clean stop ends, a flood included", async () => {
    const f = fleet ?? (await start());
    const before = await f.history.count();
    const t0 = Date.now() - 3_600_000;
    const batch = (n: number) =>
      Array.from({ length: 10_000 }, (_, i) => ({ uniqueId: "restart-9", protocol: "osmand", latitude: 54.7, longitude: 25.3 + i / 1e6, altitude: 1, speed: 10, course: 1, fixTime: t0 + (n * 10_000 + i) * 100 }));
    for (const n of [0, 1, 2]) {
      const res = await fetch(`${f.url}/insert`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(batch(n)) });
      expect(await res.json()).toMatchObject({ status: 1 });
    }
    // At once: the tracker has most of the 30,000 still to write.
    await f.close();
    fleet = undefined;
    const again = await start();
    expect(await again.history.count()).toBe(before + 30_000);
  }, 120_000);

  it("rebuilds from history a live state older than it, as a crash leaves live.json", async () => {
    let f = fleet ?? (await start());
    const deviceId = Number(/created device (\d+)/.exec(await fleetCli(f.url, "device", "add", "--name", "Van 10", "--imei", "restart-10"))![1]);
    const t = Date.now() - 600_000;
    const send = async (f: Standalone, latitude: number, fixTime: number) =>
      expect(await (await fetch(`${f.url}/insert.php?${new URLSearchParams({ uniqueId: "restart-10", protocol: "osmand", latitude: String(latitude), longitude: "25.3", altitude: "1", speed: "10", course: "0", fixTime: String(fixTime) })}`)).json()).toEqual({ status: 1 });
    const stored = async (f: Standalone, n: number) => waitFor(`${n} fixes stored`, async () => (await f.history.query({ deviceId, fromMs: 0, toMs: Date.now() })).length === n, 30_000, 100);
    await send(f, 54.7, t);
    await stored(f, 1);
    await f.close();
    const snapshot = path.join(dataDir, "live.json");
    const older = await readFile(snapshot);
    f = await start();
    // 0.01° (1.11 km) north a minute later; then the snapshot of before it, as a crash between two snapshots leaves it.
    await send(f, 54.71, t + 60_000);
    await stored(f, 2);
    await f.close();
    await writeFile(snapshot, older);
    fleet = f = await start();
    const login = (await (await fetch(`${f.url}/api/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: admin.FLEET_ADMIN_EMAIL, password: admin.FLEET_ADMIN_PASSWORD }) })).json()) as { user_api_hash: string };
    const latest = (await (await fetch(`${f.url}/api/get_devices_latest?lang=en&user_api_hash=${login.user_api_hash}`)).json()) as { items: { id: number; lat: number; total_distance: string }[] };
    expect(latest.items.find((i) => i.id === deviceId)).toMatchObject({ lat: 54.71, total_distance: "1.11" });
  }, 120_000);

  it("answers a CLI mistake with a message, not a stack trace", async () => {
    const f = fleet ?? (await start());
    await expect(fleetCli(f.url, "device", "add", "--name", "No imei")).rejects.toMatchObject({ stderr: expect.stringContaining("--imei is required") });
    await expect(fleetCli(f.url, "device", "add", "--name", "Dup", "--imei", "restart-9")).rejects.toMatchObject({ stderr: expect.stringContaining("imei: The imei has already been taken.") });
  }, 60_000);
});
