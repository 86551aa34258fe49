import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, missingServices } from "./load.js";
import { ApiEnvSchema, IngestEnvSchema, RulesEnvSchema, StandaloneEnvSchema, TrackerEnvSchema, corsOrigins, healthSettings, outboundAllowPrivate } from "./schemas.js";

describe("loadConfig", () => {
  it("applies defaults and leaves embedded adapters selected when nothing is set", () => {
    const c = loadConfig(StandaloneEnvSchema, {});
    expect(c.PORT).toBe(8080);
    expect(c.DATA_DIR).toBe("./data");
    expect(c.KAFKA_BROKERS).toBeUndefined();
    expect(c.FLEET_ADMIN_EMAIL).toBe("admin@fleet.local");
  });

  it("coerces numbers and treats empty strings as unset", () => {
    const c = loadConfig(IngestEnvSchema, { PORT: "9000", KAFKA_BROKERS: "", INGEST_LINGER_MS: "5" });
    expect(c.PORT).toBe(9000);
    expect(c.INGEST_LINGER_MS).toBe(5);
    expect(c.KAFKA_BROKERS).toBeUndefined();
  });

  it("refuses bad values and names each one", () => {
    const bad = () => loadConfig(IngestEnvSchema, { PORT: "http", DATABASE_URL: "localhost:5432", KAFKA_BROKERS: "a:1, b:2" });
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (e) {
      const msg = (e as ConfigError).message;
      expect(msg).toMatch(/PORT/);
      expect(msg).toMatch(/DATABASE_URL/);
      expect(msg).toMatch(/KAFKA_BROKERS/);
    }
  });

  it("never shows a secret's value or a URL's password in the error", () => {
    const bad = () => loadConfig(StandaloneEnvSchema, { FLEET_ADMIN_PASSWORD: "abc", DATABASE_URL: "POSTGRES://fleet:s3cret-pw@db:5432/fleet", PORT: "http" });
    expect(bad).toThrow(ConfigError);
    const msg = (() => {
      try {
        bad();
      } catch (e) {
        return (e as ConfigError).message;
      }
      return "";
    })();
    expect(msg).toMatch(/FLEET_ADMIN_PASSWORD/);
    expect(msg).toMatch(/DATABASE_URL: .*\*\*\*@db/);
    expect(msg).toMatch(/PORT: .*\(got "http"\)/);
    expect(msg).not.toMatch(/"abc"/);
    expect(msg).not.toMatch(/s3cret-pw/);
  });
});

describe("the consumer apps' health endpoint", () => {
  it("is off unless HEALTH_PORT is set, on loopback unless HEALTH_HOST says otherwise, and no setting of the all-in-one process", () => {
    expect(healthSettings(loadConfig(TrackerEnvSchema, {}))).toBeUndefined();
    expect(healthSettings(loadConfig(TrackerEnvSchema, { HEALTH_PORT: "8082" }))).toEqual({ host: "127.0.0.1", port: 8082 });
    expect(healthSettings(loadConfig(RulesEnvSchema, { HEALTH_PORT: "8083", HEALTH_HOST: "0.0.0.0" }))).toEqual({ host: "0.0.0.0", port: 8083 });
    expect(() => loadConfig(RulesEnvSchema, { HEALTH_PORT: "70000" })).toThrow(/HEALTH_PORT/);
    expect(loadConfig(StandaloneEnvSchema, {})).not.toHaveProperty("HEALTH_HOST");
  });
});

describe("the OsmAnd port", () => {
  it("is off unless OSMAND_PORT is set, for ingest and the all-in-one process, and must be a port", () => {
    expect(loadConfig(IngestEnvSchema, {}).OSMAND_PORT).toBeUndefined();
    expect(loadConfig(IngestEnvSchema, { OSMAND_PORT: "5055" }).OSMAND_PORT).toBe(5055);
    expect(loadConfig(StandaloneEnvSchema, { OSMAND_PORT: "5055" }).OSMAND_PORT).toBe(5055);
    expect(() => loadConfig(IngestEnvSchema, { OSMAND_PORT: "port" })).toThrow(/OSMAND_PORT/);
    expect(() => loadConfig(StandaloneEnvSchema, { OSMAND_PORT: "70000" })).toThrow(/OSMAND_PORT/);
  });
});

describe("outboundAllowPrivate", () => {
  it("is off by default, and on with OUTBOUND_ALLOW_PRIVATE or its older name SMS_GATEWAY_ALLOW_PRIVATE, for the api and the rules service", () => {
    for (const schema of [ApiEnvSchema, RulesEnvSchema]) {
      expect(outboundAllowPrivate(loadConfig(schema, {}))).toBe(false);
      expect(outboundAllowPrivate(loadConfig(schema, { OUTBOUND_ALLOW_PRIVATE: "true" }))).toBe(true);
      expect(outboundAllowPrivate(loadConfig(schema, { SMS_GATEWAY_ALLOW_PRIVATE: "true" }))).toBe(true);
    }
  });
});

describe("missingServices", () => {
  it("says in one line which services an app in its own process lacks, and why", () => {
    const line = missingServices({ KAFKA_BROKERS: "k:9092", DATABASE_URL: "postgres://x" }, "the tracker", ["KAFKA_BROKERS", "DATABASE_URL", "REDIS_URL", "CLICKHOUSE_URL"]);
    expect(line).toBe(
      "the tracker in a process of its own needs REDIS_URL, CLICKHOUSE_URL (an in-memory live store is seen by no other process; chDB opens its directory in one process only); `pnpm start` runs everything in one process on the embedded stores",
    );
    expect(line).not.toContain("\n");
    expect(missingServices({ KAFKA_BROKERS: "k:9092" }, "ingest", ["KAFKA_BROKERS"])).toBeUndefined();
    expect(missingServices({ KAFKA_BROKERS: "" }, "ingest", ["KAFKA_BROKERS"])).toMatch(/^ingest in a process of its own needs KAFKA_BROKERS /);
  });
});

describe("corsOrigins", () => {
  it("reads CORS_ORIGINS as any origin, a list of origins or none, and refuses what is no origin", () => {
    expect(corsOrigins(loadConfig(ApiEnvSchema, {}).CORS_ORIGINS)).toBe("*");
    expect(corsOrigins(loadConfig(ApiEnvSchema, { CORS_ORIGINS: "https://app.example.com, http://127.0.0.1:5173" }).CORS_ORIGINS)).toEqual(["https://app.example.com", "http://127.0.0.1:5173"]);
    expect(corsOrigins(loadConfig(ApiEnvSchema, { CORS_ORIGINS: "none" }).CORS_ORIGINS)).toEqual([]);
    for (const bad of ["https://app.example.com/", "app.example.com", "ftp://app.example.com", "https://a.example.com,,https://b.example.com"]) {
      expect(() => loadConfig(ApiEnvSchema, { CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
  });
});
