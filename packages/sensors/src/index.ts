export * from "./types.js";
export * from "./counters.js";
