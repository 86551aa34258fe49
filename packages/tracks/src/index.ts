export { Track, type SentPosition, type TrackPosition } from "./track.js";
export { TRACK_DEFAULTS, trackOptions, type Range, type TrackInput, type TrackOptions } from "./options.js";
export { Random } from "./random.js";
export type { LatLng } from "./plane.js";
