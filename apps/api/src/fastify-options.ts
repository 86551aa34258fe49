import { randomUUID } from "node:crypto";
import { LogController, type FastifyServerOptions } from "fastify";

/**
 * Server options shared by the API's own server and the all-in-one process: request
 * ids (taken from x-request-id when a proxy sets one), every validation error at once,
 * query/body coercion so form fields validate like JSON, and no access lines of fastify's
 * own (plugins/app/request-log.ts writes one per request, secrets redacted).
 */
export function apiServerOptions(): Pick<FastifyServerOptions, "requestIdHeader" | "genReqId" | "ajv" | "bodyLimit" | "logController"> {
  return {
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    bodyLimit: 10 * 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: "array", removeAdditional: false, useDefaults: true } },
  };
}
