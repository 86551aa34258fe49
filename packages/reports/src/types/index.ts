export * from "./context.js";
export { generalInformation, deviceTotals } from "./general.js";
export { drivesAndStops } from "./drives-stops.js";
export { overspeedCount } from "./overspeeds.js";
