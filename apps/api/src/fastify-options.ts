import { randomUUID } from "node:crypto";
import type { FastifyServerOptions } from "fastify";

/**
 * Server options shared by the API's own server and the all-in-one process: request
 * ids (taken from x-request-id when a proxy sets one), every validation error at once,
 * and query/body coercion so form fields validate like JSON.
 */
export function apiServerOptions(): Pick<FastifyServerOptions, "requestIdHeader" | "genReqId" | "ajv" | "bodyLimit"> {
  return {
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    bodyLimit: 10 * 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: "array", removeAdditional: false, useDefaults: true } },
  };
}
