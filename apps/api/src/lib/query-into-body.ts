import { InvalidInputError } from "@fleet/contracts";
import type { FastifyRequest } from "fastify";
import { differsMessage } from "./query-or-body.js";

/**
 * preValidation for routes whose POST form may carry some body fields in the query
 * instead (those its querystring schema declares): copies them into the body, so the body
 * schema checks the request as a whole. Given in both places with different values is a
 * 422 (as add_sensor and add_service answer), not a silent pick of one. A body that is not
 * an object is left to fail.
 */
export async function queryIntoBody(req: FastifyRequest): Promise<void> {
  if (req.method !== "POST") return;
  const declared = (req.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const query = req.query as Record<string, unknown>;
  const present = Object.keys(declared).filter((k) => query[k] !== undefined);
  if (present.length === 0) return;
  // No body at all is already an empty one (query-as-body.ts); `null` or an array is not.
  if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) return;
  const body = req.body as Record<string, unknown>;
  const clashes = present.filter((k) => body[k] !== undefined && JSON.stringify(body[k]) !== JSON.stringify(query[k]) && String(body[k]) !== String(query[k]));
  if (clashes.length > 0) throw new InvalidInputError(Object.fromEntries(clashes.map((k) => [k, differsMessage(k)])));
  for (const k of present) body[k] = query[k];
}
