export * from "./types.js";
export { orderedFixes, stepDistances } from "./track.js";
export { segmentTrack } from "./segment.js";
