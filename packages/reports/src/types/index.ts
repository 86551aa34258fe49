export * from "./context.js";
export { generalInformation, deviceTotals } from "./general.js";
export { generalInformationMerged, generalInformationMergedCustom } from "./general-merged.js";
export { drivesAndStops } from "./drives-stops.js";
export { travelSheet } from "./travel-sheet.js";
export { overspeeds, underspeeds } from "./speeds.js";
export { overspeedCount } from "./overspeeds.js";
