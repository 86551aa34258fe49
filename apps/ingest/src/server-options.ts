import { randomUUID } from "node:crypto";
import { LogController, type FastifyBaseLogger } from "fastify";
import { lazyChildLoggerFactory } from "./lazy-logger.js";

/** fastify's options for a server that runs the ingest app: the server file and the benchmark use these. */
export function ingestServerOptions<L extends FastifyBaseLogger>(logger: L) {
  return {
    loggerInstance: logger,
    // Per-request access logs would dominate the cost of a position; errors still carry the request id.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    childLoggerFactory: lazyChildLoggerFactory,
  };
}
