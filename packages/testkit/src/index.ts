export * from "./services.js";
export * from "./fixtures.js";
export * from "./redis.js";
export * from "./postgres.js";
export * from "./kafka.js";
export * from "./clickhouse.js";
export * from "./private-broker.js";
export * from "./swagger-ui.js";
