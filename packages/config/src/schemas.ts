import { Type, type Static } from "@sinclair/typebox";

const Url = (description: string) => Type.Optional(Type.String({ pattern: "^[a-z][a-z0-9+.-]*://", description }));
const Port = (def: number) => Type.Integer({ minimum: 0, maximum: 65535, default: def });

/** Which infrastructure to use. Unset means the embedded adapter. */
export const InfraEnvSchema = Type.Object({
  KAFKA_BROKERS: Type.Optional(Type.String({ pattern: "^[^,\\s]+(,[^,\\s]+)*$", description: "host:port[,host:port...]" })),
  /** How long a consumer that stopped heartbeating keeps its partitions (docs/decisions.md). */
  KAFKA_SESSION_TIMEOUT_MS: Type.Integer({ minimum: 6_000, maximum: 300_000, default: 10_000 }),
  /** Crashes in a row a consumer may restart from in-process; the next stops the app for its supervisor (docs/decisions.md). */
  KAFKA_CONSUMER_RESTARTS: Type.Integer({ minimum: 0, maximum: 10_000, default: 20 }),
  DATABASE_URL: Url("postgres://user:pass@host:5432/db"),
  CLICKHOUSE_URL: Url("http://host:8123"),
  CLICKHOUSE_USER: Type.Optional(Type.String()),
  CLICKHOUSE_PASSWORD: Type.Optional(Type.String()),
  CLICKHOUSE_DATABASE: Type.String({ default: "fleet", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }),
  REDIS_URL: Url("redis://host:6379"),
  DATA_DIR: Type.String({ default: "./data", minLength: 1 }),
  LOG_LEVEL: Type.Union(["fatal", "error", "warn", "info", "debug", "trace", "silent"].map((l) => Type.Literal(l)), { default: "info" }),
});
export type InfraEnv = Static<typeof InfraEnvSchema>;

export const IngestEnvSchema = Type.Composite([
  InfraEnvSchema,
  Type.Object({
    /** Loopback unless told otherwise: reaching the server from elsewhere is a choice (docs/decisions.md). */
    HOST: Type.String({ default: "127.0.0.1", minLength: 1 }),
    PORT: Port(8081),
    /** Phones' OsmAnd protocol on a port of its own, at its root (Traccar's 5055); unset, only at PORT's /osmand. */
    OSMAND_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description: "OsmAnd / Traccar Client at this port's root; unset, only at /osmand" })),
    /** Producer batching: a send goes out at this many messages or after INGEST_LINGER_MS. */
    INGEST_BATCH_MAX: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 }),
    INGEST_LINGER_MS: Type.Integer({ minimum: 0, maximum: 1000, default: 2 }),
    /** How long a request waits for the bus before it answers 503. */
    INGEST_SEND_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 5000 }),
  }),
]);
export type IngestEnv = Static<typeof IngestEnvSchema>;

/**
 * The health endpoint of an app that serves no HTTP otherwise (tracker, rules): off unless
 * HEALTH_PORT is set, so two trackers on one machine do not fight over a port. Loopback by
 * default, which a container's own health check reaches.
 */
const ConsumerHealthEnvSchema = Type.Object({
  HEALTH_HOST: Type.String({ default: "127.0.0.1", minLength: 1 }),
  HEALTH_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description: "GET /health answers here; unset, no health endpoint" })),
});

/** The tracker's own settings; the all-in-one process takes them too. */
const TrackerSettingsSchema = Type.Object({
  /** History rows are flushed at this many rows or after TRACKER_FLUSH_MS. */
  TRACKER_FLUSH_ROWS: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 20_000 }),
  TRACKER_FLUSH_MS: Type.Integer({ minimum: 1, maximum: 60_000, default: 1000 }),
  TRACKER_PARTITIONS_CONCURRENTLY: Type.Integer({ minimum: 1, maximum: 256, default: 12 }),
  /** How often the device cache picks up added, edited and removed devices. */
  TRACKER_DEVICE_SYNC_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 2000 }),
  /** Most devices whose live state the tracker keeps in memory between batches rather than reading it back from the live store. */
  TRACKER_KEPT_STATES: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 100_000 }),
});

export const TrackerEnvSchema = Type.Composite([InfraEnvSchema, TrackerSettingsSchema, ConsumerHealthEnvSchema]);
export type TrackerEnv = Static<typeof TrackerEnvSchema>;

/**
 * What the api and the rules service send on a user's behalf: mail, and requests to the
 * user's own SMS gateway and alert webhooks.
 */
export const OutboundEnvSchema = Type.Object({
  /** Let SMS gateways and alert webhooks be at private or loopback addresses (off: they must be public). */
  OUTBOUND_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  /** The older name of OUTBOUND_ALLOW_PRIVATE, still honoured: either one set allows. */
  SMS_GATEWAY_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  /** Mail (password reminders, alerts, reports) goes out through this server; unset, it is written to <DATA_DIR>/outbox/ as .eml files. */
  SMTP_URL: Type.Optional(Type.String({ pattern: "^smtps?://[^/?#]", description: "smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465" })),
  /** Days a delivered or failed alert notification stays in the outbox table before the rules service deletes it. */
  NOTIFICATIONS_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  /** The sender of the platform's mail. */
  MAIL_FROM: Type.String({ default: "Fleet <no-reply@fleet.local>", pattern: "^(?:[^<>\\r\\n]*<[^\\s@<>]+@[^\\s@<>]+>|[^\\s@<>]+@[^\\s@<>]+)$" }),
});

/** Whether requests on a user's behalf may reach private addresses (OUTBOUND_ALLOW_PRIVATE or its older name). */
export function outboundAllowPrivate(env: Pick<Static<typeof OutboundEnvSchema>, "OUTBOUND_ALLOW_PRIVATE" | "SMS_GATEWAY_ALLOW_PRIVATE">): boolean {
  return env.OUTBOUND_ALLOW_PRIVATE || env.SMS_GATEWAY_ALLOW_PRIVATE;
}

/** Where addresses come from: the api (reports, events, address endpoints) and the rules service (webhooks, alert mail). */
export const GeocoderEnvSchema = Type.Object({
  /** A server speaking Nominatim's API (/reverse, /search) for addresses; unset, an address is the nearest town, looked up offline. A key may sit in its query. */
  GEOCODER_URL: Type.Optional(Type.String({ pattern: "^https?://[^/?#]", description: "https://nominatim.example.com or http://127.0.0.1:8088/nominatim?key=..." })),
  /** How long one address lookup may take; past it the address is left empty. */
  GEOCODER_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 3000 }),
});

/** The geocoder settings in the shape `createGeocoder` takes (its logger is the app's). */
export function geocoderSettings(env: Static<typeof GeocoderEnvSchema>): { url?: string; timeoutMs: number } {
  return { url: env.GEOCODER_URL, timeoutMs: env.GEOCODER_TIMEOUT_MS };
}

export const RulesEnvSchema = Type.Composite([InfraEnvSchema, ConsumerHealthEnvSchema, OutboundEnvSchema, GeocoderEnvSchema]);
export type RulesEnv = Static<typeof RulesEnvSchema>;

/**
 * The administrator the API creates on first start, and the account the CLI signs in with by
 * default. Without a password, the first start generates one and prints it once.
 */
const AdminAccount = {
  FLEET_ADMIN_EMAIL: Type.String({ default: "admin@fleet.local", pattern: "^[^@\\s]+@[^@\\s]+$" }),
  FLEET_ADMIN_PASSWORD: Type.Optional(Type.String({ minLength: 6 })),
};

/** "*", "none", or origins (scheme://host[:port], no path) separated by commas. An empty setting is unset, so "none" says none. */
const CORS_ORIGINS_PATTERN = "^(\\*|none|\\s*https?://[^/,\\s]+\\s*(,\\s*https?://[^/,\\s]+\\s*)*)$";

/** CORS_ORIGINS as the API takes it: "*", or the listed origins (none for "none"). */
export function corsOrigins(setting: string): "*" | string[] {
  const value = setting.trim();
  if (value === "*") return "*";
  return value === "none" ? [] : value.split(",").map((o) => o.trim());
}

export const ApiEnvSchema = Type.Composite([
  InfraEnvSchema,
  Type.Object({
    /** Loopback unless told otherwise: reaching the server from elsewhere is a choice (docs/decisions.md). */
    HOST: Type.String({ default: "127.0.0.1", minLength: 1 }),
    PORT: Port(8080),
    ...AdminAccount,
    /** Minutes without a new fix after which a device counts as offline. */
    OFFLINE_AFTER_MINUTES: Type.Integer({ minimum: 1, default: 5 }),
    /** Device records the live list's cache holds over all users (least recently polled users go first). */
    LIVE_CACHE_DEVICES: Type.Integer({ minimum: 0, default: 100_000 }),
    /** Let anyone open an account with `register` (off: only administrators create users). */
    FLEET_ALLOW_REGISTRATION: Type.Boolean({ default: false }),
    /** The server as its users reach it (https://fleet.example.com), for links in mail; default http://HOST:PORT. */
    PUBLIC_URL: Url("https://fleet.example.com"),
    /** Sign-in attempts (login, register, password reminder) one client address may make per minute. */
    AUTH_LIMIT_PER_ADDRESS: Type.Integer({ minimum: 1, maximum: 100_000, default: 30 }),
    /** Sign-in attempts naming one email per 15 minutes, from any address. */
    AUTH_LIMIT_PER_EMAIL: Type.Integer({ minimum: 1, maximum: 100_000, default: 10 }),
    /** How often scheduled (daily, weekly) reports are looked for and mailed; 0 turns this instance's scheduler off. */
    REPORTS_SCHEDULE_EVERY_SECONDS: Type.Integer({ minimum: 0, maximum: 86_400, default: 60 }),
    /** Photos kept per device: an upload beyond it deletes that device's oldest (contracts' DEVICE_MEDIA_KEEP). */
    DEVICE_MEDIA_KEEP: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1000 }),
    /** Origins whose pages may call the API from a browser: * for any, a comma-separated list of origins, or none. */
    CORS_ORIGINS: Type.String({ default: "*", pattern: CORS_ORIGINS_PATTERN, description: "* or https://app.example.com,https://ops.example.com or none" }),
  }),
  OutboundEnvSchema,
  GeocoderEnvSchema,
]);
export type ApiEnv = Static<typeof ApiEnvSchema>;

/** All four apps in one process: the union of their settings, served on one port. */
export const StandaloneEnvSchema = Type.Composite([IngestEnvSchema, TrackerSettingsSchema, ApiEnvSchema, Type.Object({ PORT: Port(8080) })]);
export type StandaloneEnv = Static<typeof StandaloneEnvSchema>;

/** The bus settings in the shape `createBus` takes (its clientId, logger and onFatal are the app's). */
export function busSettings(env: InfraEnv): { kafkaBrokers?: string; sessionTimeoutMs: number; maxConsumerRestarts: number } {
  return { kafkaBrokers: env.KAFKA_BROKERS, sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS, maxConsumerRestarts: env.KAFKA_CONSUMER_RESTARTS };
}

/** The history store settings in the shape `createHistory` takes. */
export function historySettings(env: InfraEnv): { clickhouseUrl?: string; clickhouseUser?: string; clickhousePassword?: string; clickhouseDatabase: string; dataDir: string } {
  return {
    clickhouseUrl: env.CLICKHOUSE_URL,
    clickhouseUser: env.CLICKHOUSE_USER,
    clickhousePassword: env.CLICKHOUSE_PASSWORD,
    clickhouseDatabase: env.CLICKHOUSE_DATABASE,
    dataDir: env.DATA_DIR,
  };
}

/** Where a consumer app's health endpoint listens, in the shape `serveHealth` takes; undefined when it has none. */
export function healthSettings(env: Static<typeof ConsumerHealthEnvSchema>): { host: string; port: number } | undefined {
  return env.HEALTH_PORT === undefined ? undefined : { host: env.HEALTH_HOST, port: env.HEALTH_PORT };
}

/** The tracker's tuning in the shape `startTracker` takes. */
export function trackerSettings(env: Static<typeof TrackerSettingsSchema>): { flushRows: number; flushMs: number; partitionsConcurrently: number; deviceSyncMs: number; keptStates: number } {
  return {
    keptStates: env.TRACKER_KEPT_STATES,
    flushRows: env.TRACKER_FLUSH_ROWS,
    flushMs: env.TRACKER_FLUSH_MS,
    partitionsConcurrently: env.TRACKER_PARTITIONS_CONCURRENTLY,
    deviceSyncMs: env.TRACKER_DEVICE_SYNC_MS,
  };
}

/** `pnpm fleet`: where the API is and who signs in (FLEET_EMAIL/FLEET_PASSWORD, else the administrator). */
export const CliEnvSchema = Type.Object({
  FLEET_URL: Type.String({ default: "http://127.0.0.1:8080", pattern: "^https?://", description: "the API's base URL" }),
  FLEET_EMAIL: Type.Optional(Type.String({ minLength: 1 })),
  FLEET_PASSWORD: Type.Optional(Type.String({ minLength: 1 })),
  ...AdminAccount,
});
export type CliEnv = Static<typeof CliEnvSchema>;
