export * from "./users.js";
export * from "./devices.js";
export * from "./device-groups.js";
export * from "./user-devices.js";
export * from "./unregistered-devices.js";
export * from "./drivers.js";
export * from "./sensors.js";
export * from "./services.js";
