import { randomUUID } from "node:crypto";
import { LogController, type FastifyReply, type FastifyServerOptions } from "fastify";
import { clientErrorHandler, frameworkFailure, MAX_PATH_SEGMENT } from "@fleet/contracts";

/**
 * Server options shared by the API's own server and the all-in-one process: request
 * ids (taken from x-request-id when a proxy sets one), every validation error at once,
 * query/body coercion so form fields validate like JSON, and no access lines of fastify's
 * own (plugins/app/request-log.ts writes one per request, secrets redacted). Ids and file
 * names in paths are routed up to MAX_PATH_SEGMENT characters, so that a long one is refused
 * by its route's schema like any other that is no id; what fastify refuses before routing
 * is answered in the spec's failure shape too.
 */
export function apiServerOptions(): Pick<FastifyServerOptions, "requestIdHeader" | "genReqId" | "ajv" | "bodyLimit" | "logController" | "routerOptions" | "frameworkErrors" | "clientErrorHandler"> {
  return {
    // `/api//get_devices` and `/api/get_devices/` reach the endpoint, as behind the vendor's nginx (merge_slashes) and Laravel (trailing slashes redirected).
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT, ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
    frameworkErrors: (err, _req, reply) => {
      const failure = frameworkFailure(err);
      // Before routing, so no route's reply types apply.
      void (reply as FastifyReply).code(failure.statusCode).send(failure.body);
    },
    logController: new LogController({ disableRequestLogging: true }),
    // What node refuses before fastify (a URL over 16 KB), in the failure shape too.
    clientErrorHandler,
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    bodyLimit: 10 * 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: "array", removeAdditional: false, useDefaults: true } },
  };
}
