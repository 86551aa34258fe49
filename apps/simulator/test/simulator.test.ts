/*
 * The simulator against the real all-in-one server (apps/standalone's startStandalone, embedded
 * stores in a temp DATA_DIR) over HTTP: devices registered for an account through the API,
 * positions pushed in real time and shown by get_devices, GPX replayed, Ctrl-C in a real process.
 */
import { spawn } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempPglite } from "@fleet/testkit";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FleetClient } from "@fleet/cli/client";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { startStandalone, type Standalone } from "@fleet/standalone";
import { parseCli, run, type RunInput } from "../src/index.js";

const admin = { email: "admin@simulator.test", password: "simulator-admin" };
const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));

interface DeviceItem {
  name: string;
  lat: number;
  lng: number;
  device_data: { imei: string };
}

describe("pnpm simulate against the all-in-one server", () => {
  let dataDir: string;
  let fleet: Standalone;

  beforeAll(async () => {
    dataDir = (await tempPglite()).dataDir;
    const config = loadConfig(StandaloneEnvSchema, { DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", FLEET_ADMIN_EMAIL: admin.email, FLEET_ADMIN_PASSWORD: admin.password, TRACKER_FLUSH_MS: "100" });
    fleet = await startStandalone(config, pino({ level: "silent" }));
  });

  afterAll(async () => {
    await fleet?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const simulate = async (argv: string[], password = "account-secret") => {
    const lines: string[] = [];
    const input: RunInput = {
      cli: parseCli([...argv, "--url", fleet.url]),
      env: { FLEET_URL: "http://127.0.0.1:1", FLEET_PASSWORD: password, FLEET_ADMIN_EMAIL: admin.email, FLEET_ADMIN_PASSWORD: admin.password },
      signal: new AbortController().signal,
      out: (line) => lines.push(line),
    };
    return { summary: await run(input), lines };
  };

  /** The account's devices, once `ready` holds for them (the tracker writes the live state shortly after ingest). */
  async function devicesOf(email: string, password: string, ready: (items: DeviceItem[]) => boolean): Promise<DeviceItem[]> {
    const client = new FleetClient(fleet.url);
    await client.login(email, password);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const groups = (await client.get("get_devices")) as { items: DeviceItem[] }[];
      const items = groups.flatMap((g) => g.items);
      if (ready(items) || Date.now() > deadline) return items;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it("registers its devices for a new account (created by the administrator), and their positions show in get_devices", async () => {
    const { summary, lines } = await simulate(["--devices", "3", "--rate", "6", "--user", "fleet-sim@simulator.test", "--duration", "3", "--progress", "1"]);
    expect(lines).toContain("fleet-sim@simulator.test (created now): 3 device(s) added, 0 already there");
    expect(lines.some((l) => /^\[simulate \d+s\] sent \d+, accepted \d+, rejected 0, failed 0, skipped 0; [\d.]+ accepted\/s$/.test(l))).toBe(true);
    expect(summary.reason).toBe("duration");
    // 6 a second for 3 s, give or take the lost stretches and repeats the model makes.
    expect(summary.accepted).toBeGreaterThanOrEqual(10);
    expect(summary).toMatchObject({ rejected: 0, failed: 0, skipped: 0 });
    expect(summary.sent).toBe(summary.accepted);

    const items = await devicesOf("fleet-sim@simulator.test", "account-secret", (xs) => xs.length === 3 && xs.every((d) => d.lat !== 0));
    expect(items.map((d) => d.device_data.imei).sort()).toEqual(["sim-1-0001", "sim-1-0002", "sim-1-0003"]);
    expect(items.map((d) => d.name).sort()).toEqual(["Simulated 0001", "Simulated 0002", "Simulated 0003"]);
    // Positions near the model's region (Vilnius), not the zeros of a device that never reported.
    for (const d of items) {
      expect(Math.abs(d.lat - 54.69)).toBeLessThan(0.5);
      expect(Math.abs(d.lng - 25.28)).toBeLessThan(0.8);
    }
  });

  it("finds the devices of a previous run with the same seed already registered", async () => {
    const first = await simulate(["--devices", "2", "--seed", "5", "--user", "rerun-sim@simulator.test", "--duration", "0.5"]);
    expect(first.lines).toContain("rerun-sim@simulator.test (created now): 2 device(s) added, 0 already there");
    const { lines } = await simulate(["--devices", "3", "--seed", "5", "--user", "rerun-sim@simulator.test", "--duration", "0.5"]);
    expect(lines).toContain("rerun-sim@simulator.test: 1 device(s) added, 2 already there");
  });

  it("refuses to register for an account it cannot sign in as, saying why", async () => {
    await simulate(["--devices", "1", "--seed", "3", "--user", "refused@simulator.test", "--duration", "0.2"], "right-password");
    // The account's devices, by id and name: durations such as stop_duration move on with the clock.
    const registered = async () => (await devicesOf("refused@simulator.test", "right-password", () => true)).map((d) => `${d.device_data.imei} ${d.name}`);
    const before = await registered();
    await expect(simulate(["--devices", "2", "--seed", "3", "--user", "refused@simulator.test", "--duration", "1"], "wrong-password")).rejects.toThrow(/^Signing in as refused@simulator\.test was refused: /);
    expect(await registered()).toEqual(before);
  });

  it("says which device another account holds when this seed's devices are taken", async () => {
    await simulate(["--devices", "1", "--seed", "4", "--user", "first-sim@simulator.test", "--duration", "0.2"]);
    await expect(simulate(["--devices", "1", "--seed", "4", "--user", "other-sim@simulator.test", "--duration", "1"])).rejects.toThrow(
      /^add_device sim-4-0001 for other-sim@simulator\.test: imei: .*taken.* run with another --seed\)$/,
    );
  });

  it("replays a GPX track through insert.php, sped up, and ends when the track has played", async () => {
    const file = path.join(dataDir, "drive.gpx");
    const t0 = Date.UTC(2024, 4, 1, 8, 0, 0);
    const points = Array.from({ length: 6 }, (_, i) => ({ lat: 54.7 + i * 0.001, lng: 25.3, time: new Date(t0 + i * 10_000).toISOString() }));
    await writeFile(
      file,
      `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
  <trk><name>Morning drive</name><trkseg>
${points.map((p) => `    <trkpt lat="${p.lat}" lon="${p.lng}"><ele>120</ele><time>${p.time}</time></trkpt>`).join("\n")}
  </trkseg></trk>
</gpx>`,
    );
    const started = Date.now();
    const { summary } = await simulate(["--gpx", file, "--speed", "25", "--endpoint", "insert.php", "--seed", "9", "--user", "gpx-sim@simulator.test"]);
    // 50 s recorded, 25× faster: 2 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(summary).toMatchObject({ reason: "replays ended", sent: 6, accepted: 6, rejected: 0, failed: 0 });
    const [device] = await devicesOf("gpx-sim@simulator.test", "account-secret", (xs) => xs[0]?.lat === 54.705);
    expect(device).toMatchObject({ name: `GPX ${file} (Morning drive)`, lat: 54.705, lng: 25.3, device_data: { imei: "sim-9-0001" } });
  });

  it("stops on Ctrl-C with a summary line, exit code 0", async () => {
    const child = spawn(process.execPath, ["--conditions=@fleet/source", "--import", import.meta.resolve("tsx"), main, "--devices", "2", "--rate", "4", "--url", fleet.url], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (b: Buffer) => {
      stdout += b.toString();
      if (stdout.includes("Ctrl-C stops")) setTimeout(() => child.kill("SIGINT"), 1500);
    });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toMatch(/\nsimulate: stopped after \d+\.\d s: sent \d+, accepted \d+, rejected 0, failed 0, skipped 0; [\d.]+ accepted\/s\n$/);
  });

  it("refuses bad options, naming them", () => {
    expect(() => parseCli(["--devices", "0"])).toThrow(/--devices/);
    expect(() => parseCli(["--rate", "fast"])).toThrow(/--rate/);
    expect(() => parseCli(["--endpoint", "kafka"])).toThrow(/--endpoint/);
    expect(() => parseCli(["--user", "nobody"])).toThrow(/--user/);
    expect(() => parseCli(["stray.gpx"])).toThrow(/stray\.gpx/);
    expect(parseCli(["--gpx", "a.gpx", "b.gpx"]).gpx).toEqual(["a.gpx", "b.gpx"]);
  });
});
