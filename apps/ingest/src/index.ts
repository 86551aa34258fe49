export { ingestApp, type IngestAppOptions } from "./app.js";
export { createPublisher, type Publisher, BusUnavailableError } from "./publisher.js";
export { parsePosition, type ParsedPosition } from "./parse.js";
export { ingestServerOptions } from "./server-options.js";
export { insertGetFastPath, serverFactoryWith, type FastPath } from "./fast-get.js";
export { startOsmandServer, type OsmandServer } from "./osmand-server.js";
