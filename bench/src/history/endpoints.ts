import { pino } from "pino";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { startStandalone } from "@fleet/standalone";
import type { Client } from "../live/http.js";
import type { Layout, TimeRange } from "./layout.js";

/** A range as the history endpoints take it: local date and time on the account's clock (the seeded account's is UTC). */
function rangeQuery(r: TimeRange): string {
  const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const time = (ms: number) => new Date(ms).toISOString().slice(11, 19);
  return `from_date=${date(r.fromMs)}&from_time=${time(r.fromMs)}&to_date=${date(r.toMs)}&to_time=${time(r.toMs)}`;
}

export interface EndpointTargets {
  apiHash: string;
  deviceId: number;
  layout: Layout;
  pageSize: number;
  deepOffset: number;
}

/** The endpoint requests measured, as paths: each reads the rows of one raw query (same device, range and page). */
export function endpointPaths(t: EndpointTargets) {
  const base = (endpoint: string, r: TimeRange) => `/api/${endpoint}?lang=en&user_api_hash=${t.apiHash}&device_id=${t.deviceId}&${rangeQuery(r)}`;
  return {
    page1: `${base("get_history_messages", t.layout.month)}&limit=${t.pageSize}&page=1`,
    deep: `${base("get_history_messages", t.layout.month)}&limit=${t.pageSize}&page=${t.deepOffset / t.pageSize + 1}`,
    day: base("get_history", t.layout.day),
  };
}

/**
 * A request that must answer 200 with a success body (`"status":1`); its size in bytes. The
 * mark is looked for in the bytes: decoding a 5 MB answer to look for it cost the client
 * ~5 ms, on the thread that also answers (the app runs in this process).
 */
export async function checkedGet(client: Client, path: string): Promise<number> {
  const reply = await client.get(path, true);
  const body = reply.body ?? Buffer.alloc(0);
  if (reply.status !== 200 || body.indexOf('"status":1') < 0) throw new Error(`GET ${path.split("?")[0]}: HTTP ${reply.status}: ${body.subarray(0, 300).toString("utf8")}`);
  return reply.bytes;
}

const STORE_VARIABLES = ["KAFKA_BROKERS", "DATABASE_URL", "REDIS_URL", "CLICKHOUSE_URL", "CLICKHOUSE_USER", "CLICKHOUSE_PASSWORD", "CLICKHOUSE_DATABASE"];

/**
 * The all-in-one app on the seeded directory, in this process: it opens the same chDB
 * directory as the raw queries' session (one engine per process), so endpoint and raw
 * measures run side by side in every round. Embedded stores whatever the environment says;
 * the app's own tunables pass through.
 */
export async function startAppOn(dataDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of STORE_VARIABLES) delete env[name];
  const config = loadConfig(StandaloneEnvSchema, {
    ...env,
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: "0",
    FLEET_ADMIN_EMAIL: "bench-admin@fleet.local",
    FLEET_ADMIN_PASSWORD: "bench-admin-password",
  });
  const app = await startStandalone(config, pino({ level: "warn" }));
  return { url: app.url, close: () => app.close() };
}
