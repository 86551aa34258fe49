import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UnsafeStartError } from "@fleet/api";
import { ListenError, loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { tempPglite } from "@fleet/testkit";
import { startStandalone } from "../src/main.js";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const serverEntry = path.join(repoRoot, "apps/standalone/src/server.ts");

interface Run {
  output: string[];
  exited: Promise<number | null>;
  /** Resolves with the first line matching `re`, or rejects after `ms`. */
  line(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  signal(s: NodeJS.Signals): void;
}

/** A plain server listening on loopback at `port` (0: any free one). */
async function listening(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  return server;
}

/** Servers not yet exited: a failed test must not leave one holding its data directory. */
const running = new Set<() => void>();

/** The all-in-one server started as `pnpm start` starts it, with no password and no HOST set. */
function startServer(dataDir: string, extra: Record<string, string> = {}): Run {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ["HOST", "FLEET_ADMIN_PASSWORD", "KAFKA_BROKERS", "DATABASE_URL", "REDIS_URL", "CLICKHOUSE_URL"]) delete env[k];
  Object.assign(env, { DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info" }, extra);
  const child = spawn(process.execPath, ["--conditions=@fleet/source", "--import", "tsx", serverEntry], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  const waiting = new Set<() => void>();
  for (const s of [child.stdout, child.stderr]) {
    createInterface({ input: s }).on("line", (l) => {
      output.push(l);
      for (const w of waiting) w();
    });
  }
  const kill = () => child.kill("SIGKILL");
  running.add(kill);
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      running.delete(kill);
      resolve(code);
    }),
  );
  return {
    output,
    exited,
    signal: (s) => child.kill(s),
    line: (re, ms = 90_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          for (const l of output) {
            const m = l.match(re);
            if (m) {
              waiting.delete(check);
              clearTimeout(timer);
              return resolve(m);
            }
          }
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no line matching ${re} within ${ms} ms; output:\n${output.join("\n")}`));
        }, ms);
        waiting.add(check);
        check();
        void exited.then(() => setTimeout(check, 0));
      }),
  };
}

describe("the first start of the all-in-one server", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "fleet-first-run-"));
  });
  afterEach(() => {
    for (const kill of running) kill();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it("binds loopback, prints a generated password once, logs no secret and stops cleanly on Ctrl-C", async () => {
    const run = startServer(dataDir);
    const [, url] = await run.line(/Fleet is running at (http:\/\/\S+)/);
    const [, password] = await run.line(/Created the administrator admin@fleet\.local with the password (\S+)/);
    expect(new URL(url!).hostname).toBe("127.0.0.1");
    expect(password!.length).toBeGreaterThanOrEqual(20);
    // Where phones send, with no OSMAND_PORT: the path on the server's own port.
    expect(run.output).toContain(`    ${url}/osmand`);

    const login = await fetch(`${url}/api/login`, { method: "POST", body: new URLSearchParams({ email: "admin@fleet.local", password: password! }) });
    expect(login.status).toBe(200);
    const { user_api_hash: hash } = (await login.json()) as { user_api_hash: string };
    expect((await fetch(`${url}/api/get_devices?lang=en&user_api_hash=${hash}`)).status).toBe(200);
    await run.line(/get_devices/);

    // The banner's push line, run by a shell as a person pastes it, moves the banner's device.
    const device = { name: "Van 1", imei: "123456789012345", icon_id: 1, fuel_measurement_id: 1, tail_length: 5, min_moving_speed: 6, min_fuel_fillings: 10, min_fuel_thefts: 10 };
    const added = await fetch(`${url}/api/add_device?lang=en&user_api_hash=${hash}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(device) });
    expect(added.status).toBe(200);
    // A fix already stored from after the start: a line timed at the start would be older and move nothing.
    await new Promise((r) => setTimeout(r, 2000));
    const earlier = await fetch(`${url}/insert.php?uniqueId=123456789012345&protocol=osmand&latitude=54&longitude=25&altitude=0&speed=0&course=0&fixTime=${Date.now() - 1000}`);
    expect(earlier.status).toBe(200);
    await new Promise((r) => setTimeout(r, 2000));
    const push = run.output[run.output.findIndex((l) => l.includes("Push a position")) + 1]!.trim();
    const pushed = spawn("bash", ["-c", push], { stdio: ["ignore", "pipe", "inherit"] });
    let answer = "";
    pushed.stdout.on("data", (c: Buffer) => (answer += c.toString()));
    expect(await new Promise((r) => pushed.on("exit", r))).toBe(0);
    expect(JSON.parse(answer)).toEqual({ status: 1 });
    const shown = async () => ((await (await fetch(`${url}/api/get_devices?lang=en&user_api_hash=${hash}`)).json()) as { items: { lat: number }[] }[]).flatMap((g) => g.items.map((d) => d.lat));
    for (let i = 0; i < 100 && !(await shown()).includes(54.6872); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await shown()).toEqual([54.6872]);

    run.signal("SIGINT");
    expect(await run.exited).toBe(0);
    const text = run.output.join("\n");
    expect(text).toMatch(/stopped; data kept/);
    expect(text).not.toContain(hash);
    // The password is in the banner (its lines and examples), in no log line (JSON, as stdout is no terminal).
    const logLines = run.output.filter((l) => l.startsWith("{"));
    expect(logLines.length).toBeGreaterThan(2);
    expect(logLines.filter((l) => l.includes(password!))).toEqual([]);
    expect(text).not.toMatch(/ELIFECYCLE|ERR_|Error:/);
  });

  it("does not print the password again on the next start, and prints the OsmAnd port's address when it has one", async () => {
    const run = startServer(dataDir, { OSMAND_PORT: "0" });
    const [, url] = await run.line(/Fleet is running at (http:\/\/\S+)/);
    const [, phones] = await run.line(/^ {4}(http:\/\/127\.0\.0\.1:\d+)$/);
    expect(phones).not.toBe(url);
    const fix = await fetch(`${phones}/?id=358240051111777&lat=54.69&lon=25.28&timestamp=${Math.floor(Date.now() / 1000)}`);
    expect(fix.status).toBe(200);
    run.signal("SIGINT");
    expect(await run.exited).toBe(0);
    expect(run.output.join("\n")).not.toMatch(/Created the administrator/);
  });

  it("refuses to listen beyond loopback with a known weak password, before anything is stored", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "fleet-weak-"));
    try {
      const run = startServer(dir, { HOST: "0.0.0.0", FLEET_ADMIN_PASSWORD: "admin12345" });
      expect(await run.exited).toBe(1);
      expect(run.output.join("\n")).toMatch(/refusing to listen on 0\.0\.0\.0 with a weak FLEET_ADMIN_PASSWORD/);
      // No store was made, so no administrator holds that password.
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("says which setting to change when its port is taken, and keeps no port of a refused start", async () => {
    const { dataDir: dir, cleanup } = await tempPglite();
    const other = await listening(0);
    const taken = String((other.address() as AddressInfo).port);
    try {
      const config = (env: Record<string, string>) => loadConfig(StandaloneEnvSchema, { DATA_DIR: dir, HOST: "127.0.0.1", ...env });
      await expect(startStandalone(config({ PORT: taken }), pino({ level: "silent" }))).rejects.toThrow(new ListenError(`127.0.0.1:${taken} is already in use by another program: stop it, or choose another PORT.`));
      // The API's port is taken first, then the OsmAnd port is refused: the API's is let go.
      const free = await listening(0);
      const port = (free.address() as AddressInfo).port;
      await new Promise((r) => free.close(r));
      await expect(startStandalone(config({ PORT: String(port), OSMAND_PORT: taken }), pino({ level: "silent" }))).rejects.toThrow(`127.0.0.1:${taken} is already in use by another program: stop it, or choose another OSMAND_PORT.`);
      (await listening(port)).close();
    } finally {
      other.close();
      await cleanup();
    }
  });

  it("refuses to listen beyond loopback while the stored administrator keeps a known weak password", async () => {
    // Not a first start of the store (those are above): a migrated copy spares an initdb.
    const { dataDir: dir, cleanup } = await tempPglite();
    try {
      const config = (env: Record<string, string>) => loadConfig(StandaloneEnvSchema, { DATA_DIR: dir, PORT: "0", ...env });
      // Created on loopback with the old default, as an earlier version did...
      const first = await startStandalone(config({ HOST: "127.0.0.1", FLEET_ADMIN_PASSWORD: "admin12345" }), pino({ level: "silent" }));
      expect(first.admin.created).toBe(true);
      await first.close();
      // ...then started for the network with no password set.
      await expect(startStandalone(config({ HOST: "0.0.0.0" }), pino({ level: "silent" }))).rejects.toThrow(UnsafeStartError);
    } finally {
      await cleanup();
    }
  });
});
