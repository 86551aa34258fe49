export { run, summaryLine, type RunInput } from "./run.js";
export { parseCli, HELP, type CliOptions } from "./options.js";
export { simulate, type SimulateOptions, type SimulateSummary } from "./simulate.js";
export { modelFeeds, replayFeed, replayFeeds, uniqueIdOf, type DeviceFeed } from "./feeds.js";
export { parseGpx, readGpxFiles, type RecordedPoint, type RecordedTrack } from "./gpx.js";
