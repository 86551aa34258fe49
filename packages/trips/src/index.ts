export * from "./types.js";
export { orderedFixes, rowsInOrder, stepDistances, stepsByRow } from "./track.js";
export { segmentTrack } from "./segment.js";
// The cut's rule for a GPS spike, for history-engine's cut to apply the same.
export { GPS_JUMP_KMH } from "@fleet/geo";
