import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

function collect(value: unknown, path: string, out: Record<string, string>, depth: number): void {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) out[path || "body"] ??= `The ${(path.split(".").at(-1) ?? "value").replaceAll("_", " ")} must be a finite number.`;
    return;
  }
  if (depth > 8 || value === null || typeof value !== "object" || Buffer.isBuffer(value)) return;
  for (const [k, v] of Object.entries(value)) collect(v, path ? `${path}.${k}` : k, out, depth + 1);
}

/** Fields holding ±Infinity or NaN, by dotted path, with a message each. */
export function nonFiniteFields(...parts: unknown[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of parts) collect(part, "", out, 0);
  return out;
}

/**
 * "1e400" in a form or a path (coerced by AJV) or 1e400 in JSON (JSON.parse) becomes Infinity,
 * which passes every number schema: AJV's minimum/maximum skip non-finite values. Checked
 * once here, after validation and before any handler, so no route stores or trips on it.
 */
export default fp(
  async function finiteNumbers(app: FastifyInstance) {
    app.addHook("preHandler", async (req: FastifyRequest, reply: FastifyReply) => {
      const errors = nonFiniteFields(req.params, req.query, req.body);
      if (Object.keys(errors).length > 0) return reply.code(422).send({ status: 0, errors });
    });
  },
  { name: "finite-numbers" },
);
