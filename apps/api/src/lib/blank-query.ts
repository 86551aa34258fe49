import type { FastifyRequest } from "fastify";

/**
 * A hook (onRequest or preValidation) that reads the query's blank `keys` (`lat=`, `time=`)
 * as not given: AJV would coerce an empty string to 0, a point on the map or the start of
 * time, or refuse it, where a client that sends an empty field means "none".
 */
export function blankQueryAsMissing(...keys: string[]) {
  return async (req: FastifyRequest): Promise<void> => {
    const query = req.query as Record<string, unknown> | undefined;
    for (const key of keys) if (typeof query?.[key] === "string" && query[key].trim() === "") delete query[key];
  };
}
