export * from "./geo.js";
