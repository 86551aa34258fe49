export * from "./geo.js";
export * from "./simple-ring.js";
