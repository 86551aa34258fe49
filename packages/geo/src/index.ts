export * from "./geo.js";
export * from "./geofence-index.js";
export * from "./simple-ring.js";
