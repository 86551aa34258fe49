export * from "./common.js";
export * from "./timezones.js";
export * from "./auth.js";
export * from "./devices.js";
export * from "./catalogues.js";
export * from "./admin.js";
export * from "./pagination.js";
