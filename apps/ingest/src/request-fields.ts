import type { FastifyRequest } from "fastify";

/**
 * A POST's fields: its query and its body (a form or a JSON object) merged, the body's
 * winning. Some gateways and phone apps POST with the fields in the query and an empty body.
 */
export function requestFields(req: FastifyRequest): Record<string, unknown> {
  const body = req.body !== null && typeof req.body === "object" && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  return { ...(req.query as Record<string, unknown>), ...body };
}
