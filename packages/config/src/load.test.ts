import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./load.js";
import { IngestEnvSchema, StandaloneEnvSchema } from "./schemas.js";

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
});
