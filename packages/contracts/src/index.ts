export * from "./topics.js";
export * from "./position.js";
export * from "./live.js";
export * from "./history.js";
export * from "./failure.js";
export * from "./text.js";
export * from "./api/index.js";
export * from "./alert-types.js";
