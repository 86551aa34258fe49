import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { freePort } from "@fleet/testkit";
import { defer, sleep } from "./harness.js";
import { Client } from "./http.js";
import { cpuMsOf } from "./proc.js";

/** The standalone app's entry point in this checkout, run from source. */
const serverEntry = fileURLToPath(new URL("../../../apps/standalone/src/server.ts", import.meta.url));

export const ADMIN = { email: "bench-admin@fleet.local", password: "bench-admin-password" };

export interface Standalone {
  url: string;
  pid: number;
  /** The app's CPU time so far (user + system), ms. */
  cpuMs(): number;
  /** Lines the app printed that were not shown (beyond the first few). */
  suppressed(): number;
  stop(): Promise<void>;
}

const SHOWN_LINES = 40;

/**
 * Starts apps/standalone/src/server.ts as a child process (`node --max-semi-space-size=64
 * --conditions=@fleet/source --import tsx`, so the pid is the app itself and its CPU can be read from /proc) with the
 * store variables in `storeEnv`, and waits until it answers HTTP. The app's own tunables
 * pass through from this environment; the store and service variables do not.
 */
export async function startStandalone(opts: {
  dataDir: string;
  storeEnv: Record<string, string | undefined>;
  extraEnv: Record<string, string>;
  startTimeoutS: number;
  log(line: string): void;
}): Promise<Standalone> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["KAFKA_BROKERS", "DATABASE_URL", "REDIS_URL", "CLICKHOUSE_URL", "CLICKHOUSE_USER", "CLICKHOUSE_PASSWORD", "CLICKHOUSE_DATABASE"]) delete env[name];
  Object.assign(env, opts.storeEnv, opts.extraEnv, {
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: opts.dataDir,
    LOG_LEVEL: "warn",
    FLEET_ADMIN_EMAIL: ADMIN.email,
    FLEET_ADMIN_PASSWORD: ADMIN.password,
  });
  const tsx = import.meta.resolve("tsx");
  // The node flags `pnpm start` runs the app with (apps/standalone/package.json): a larger
  // young generation, so a big answer's garbage is mostly collected young.
  const child = spawn(process.execPath, ["--max-semi-space-size=64", "--conditions=@fleet/source", "--import", tsx, serverEntry], { env, stdio: ["ignore", "pipe", "pipe"] });
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not start the standalone app");
  const stop = defer(`stop the standalone app (pid ${pid})`, () => stopChild(child));

  // The app's warnings and errors are shown (the first few); the start banner is not.
  const recent: string[] = [];
  let shown = 0;
  let suppressed = 0;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => {
      recent.push(line);
      if (recent.length > 30) recent.shift();
      const isLog = line.startsWith("{") || stream === child.stderr;
      if (!isLog) return;
      if (shown++ < SHOWN_LINES) console.log(`[app] ${line.length > 400 ? `${line.slice(0, 400)}…` : line}`);
      else suppressed++;
    });
  }

  const url = `http://127.0.0.1:${port}`;
  const client = new Client(url, { timeoutMs: 2000 });
  const deadline = Date.now() + opts.startTimeoutS * 1000;
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the standalone app exited (${child.exitCode ?? child.signalCode}) before answering:\n${recent.join("\n")}`);
      try {
        // Any HTTP answer means it listens (this one is a 401: no user_api_hash).
        await client.get("/api/get_devices_latest");
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`the standalone app did not answer HTTP within ${opts.startTimeoutS} s:\n${recent.join("\n")}`);
        await sleep(250);
      }
    }
  } catch (err) {
    await stop();
    throw err;
  } finally {
    client.close();
  }
  return { url, pid, cpuMs: () => cpuMsOf(pid), suppressed: () => suppressed, stop };
}

/** SIGTERM (the app closes its stores gracefully), then SIGKILL if it has not exited in 20 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}
