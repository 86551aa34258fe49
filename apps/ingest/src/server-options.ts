import { randomUUID } from "node:crypto";
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyServerOptions } from "fastify";
import { clientErrorHandler, frameworkFailure } from "@fleet/contracts";
import { insertGetFastPath, serverFactoryWith } from "./fast-get.js";
import { lazyChildLoggerFactory } from "./lazy-logger.js";
import type { Publisher } from "./publisher.js";
import { parseQuery } from "./query.js";

/**
 * fastify's options for a server that runs the ingest app: the server file and the
 * benchmark use these. `GET /insert.php` is answered before fastify (fast-get.ts).
 */
export function ingestServerOptions<L extends FastifyBaseLogger>(logger: L, publisher: Publisher) {
  return { ...phoneServerOptions(logger), serverFactory: serverFactoryWith(insertGetFastPath(publisher, logger)) };
}

/** The options of any server devices and phones send to: ingest's without its insert.php fast path (the OsmAnd port's). */
export function phoneServerOptions<L extends FastifyBaseLogger>(logger: L) {
  return {
    serverFactory: serverFactoryWith(() => false),
    loggerInstance: logger,
    // Per-request access logs would dominate the cost of a position; errors still carry the request id.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    childLoggerFactory: lazyChildLoggerFactory,
    // As the API's (fastify-options.ts): doubled and trailing slashes reach the route.
    routerOptions: { querystringParser: parseQuery, ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
    // A path fastify refuses before routing (not UTF-8) is answered in the spec's failure shape, without echoing the URL.
    frameworkErrors: ((err, _req, reply) => {
      const failure = frameworkFailure(err);
      void (reply as FastifyReply).code(failure.statusCode).send(failure.body);
    }) satisfies FastifyServerOptions["frameworkErrors"],
    // What node refuses before fastify (a URL over 16 KB), in the failure shape too.
    clientErrorHandler,
  };
}
