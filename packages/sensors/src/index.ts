export * from "./types.js";
export * from "./counters.js";
export * from "./readings.js";
export * from "./service-state.js";
