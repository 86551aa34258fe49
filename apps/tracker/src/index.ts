export { startTracker, type Tracker, type TrackerOptions } from "./service.js";
export { enrichPosition, POSITION_HANDLERS, type Logger } from "./pipeline.js";
export { previousPoint } from "./handlers/previous.js";
export type { Enriched, PositionContext, PositionHandler } from "./position/context.js";
