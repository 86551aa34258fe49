export * from "./users.js";
export * from "./devices.js";
export * from "./device-groups.js";
export * from "./user-devices.js";
export * from "./unregistered-devices.js";
