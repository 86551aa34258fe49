export * from "./load.js";
export * from "./schemas.js";
export * from "./listen.js";
