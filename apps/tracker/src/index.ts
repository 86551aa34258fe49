export { startTracker, type Tracker, type TrackerOptions } from "./service.js";
export { enrichPosition, previousPoint } from "./handlers/enrich.js";
export type { Logger } from "./pipeline.js";
