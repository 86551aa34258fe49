import { describe, expect, it } from "vitest";
import { createBus } from "./create.js";

describe("createBus", () => {
  it("is the in-process bus without brokers and Kafka with them (connecting lazily)", async () => {
    expect(createBus({ clientId: "t" }).kind).toBe("memory");
    expect(createBus({ clientId: "t", kafkaBrokers: " " }).kind).toBe("memory");
    const kafka = createBus({ clientId: "t", kafkaBrokers: "127.0.0.1:1,127.0.0.1:2" });
    expect(kafka.kind).toBe("kafka");
    await kafka.close();
  });
});
