import { assertNoErrors, findForbiddenText, forbiddenTextMessage, InvalidInputError } from "@fleet/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

/** How a message names the field at a dotted path: its last part, in words. */
function nameOf(path: string): string {
  return (path.split(".").at(-1) ?? path).replaceAll("_", " ");
}

function collect(value: unknown, path: string, out: Record<string, string>, depth: number): void {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) out[path || "body"] ??= `The ${nameOf(path || "value")} must be a finite number.`;
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

/** The first field of the path parameters, query or body holding text the contracts' rule refuses, with its message. */
function forbiddenTextField(req: FastifyRequest): Record<string, string> | undefined {
  for (const [part, whole] of [
    [req.params, "params"],
    [req.query, "query"],
    [req.body, "body"],
  ] as const) {
    const path = findForbiddenText(part);
    if (path !== undefined) return { [path || whole]: forbiddenTextMessage(nameOf(path || whole)) };
  }
  return undefined;
}

/**
 * Rules every request's input keeps, whatever the route, answered 422 `{status: 0, errors}`.
 *
 * Text: no control character but tab, newline and CR, no lone surrogate (the contracts'
 * rule; PostgreSQL fails on a NUL with a 500, a lone surrogate is stored garbled). Checked
 * in preValidation, where the body is parsed (multipart file parts stay Buffers and are not
 * text), and before authentication: this hook runs before the authed scope's own
 * preValidation hooks, and authentication looks user_api_hash up in the database.
 *
 * Numbers: "1e400" in a form or a path (coerced by AJV) or 1e400 in JSON (JSON.parse)
 * becomes Infinity, which passes every number schema: AJV's minimum/maximum skip
 * non-finite values. Checked after validation and before any handler.
 */
export default fp(
  async function inputRules(app: FastifyInstance) {
    app.addHook("preValidation", async (req: FastifyRequest) => {
      const errors = forbiddenTextField(req);
      if (errors) throw new InvalidInputError(errors);
    });
    app.addHook("preHandler", async (req: FastifyRequest) => assertNoErrors(nonFiniteFields(req.params, req.query, req.body)));
  },
  { name: "input-rules", dependencies: ["body-parsers"] },
);
