import net from "node:net";

/** Where the integration tests find the real services; defaults match infra/. */
export const serviceUrls = {
  kafka: process.env.TEST_KAFKA_BROKERS ?? "127.0.0.1:9092",
  postgres: process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  redis: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
  clickhouse: process.env.CLICKHOUSE_URL ?? "",
};

export type ServiceName = "kafka" | "postgres" | "redis" | "clickhouse";

// What global setup hands to every test file through vitest's provide/inject.
declare module "vitest" {
  export interface ProvidedContext {
    services: Record<ServiceName, boolean>;
    /** A data directory whose `pglite/` holds an empty, migrated PGlite cluster (@fleet/db's test/store-templates.ts). */
    pgliteTemplate: string;
    /** An empty, migrated database on the test PostgreSQL server, to copy; "" where none answers. */
    postgresTemplate: string;
  }
}

function hostPort(name: ServiceName): { host: string; port: number } | undefined {
  const raw = serviceUrls[name];
  if (!raw) return undefined;
  if (name === "kafka") {
    const [host = "127.0.0.1", port = "9092"] = raw.split(",")[0]!.split(":");
    return { host, port: Number(port) };
  }
  const u = new URL(raw);
  const defaults = { postgres: 5432, redis: 6379, clickhouse: 8123, kafka: 9092 } as const;
  return { host: u.hostname, port: Number(u.port || defaults[name]) };
}

function canConnect(host: string, port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Which services answer on their port right now. ClickHouse counts only when configured. */
export async function probeServices(): Promise<Record<ServiceName, boolean>> {
  const names: ServiceName[] = ["kafka", "postgres", "redis", "clickhouse"];
  const results = await Promise.all(
    names.map(async (n) => {
      const hp = hostPort(n);
      return [n, hp ? await canConnect(hp.host, hp.port) : false] as const;
    }),
  );
  return Object.fromEntries(results) as Record<ServiceName, boolean>;
}
