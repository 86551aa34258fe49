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

interface ObjectSchema {
  properties?: Record<string, { type?: unknown; items?: { type?: unknown } }>;
}

const integerFieldsOf = new WeakMap<object, string[]>();

/** The top-level fields `schema` types as an integer or an array of integers (computed once per schema). */
function integerFields(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  let fields = integerFieldsOf.get(schema);
  if (!fields) {
    const properties = (schema as ObjectSchema).properties ?? {};
    fields = Object.keys(properties).filter((k) => properties[k]!.type === "integer" || (properties[k]!.type === "array" && properties[k]!.items?.type === "integer"));
    integerFieldsOf.set(schema, fields);
  }
  return fields;
}

// An integer as text: decimal digits, a minus sign at most. The range is the schema's to check.
const PLAIN_INTEGER = /^-?\d+$/;

// What the rules found before validation that AJV does not see (it reads "1e3" as 1000),
// kept so the 422 lists it with AJV's own errors: every error at once, as everywhere else.
const foundBeforeValidation = new WeakMap<FastifyRequest, Record<string, string>>();

/** The errors the input rules found in `req` before validation, for the error handler to add to AJV's. */
export function inputRuleErrors(req: FastifyRequest): Record<string, string> {
  return foundBeforeValidation.get(req) ?? {};
}

/**
 * Integer fields sent as text (a query, a form) that are not written as plain decimal
 * integers, with a message each, keyed and worded as AJV's own (`devices.0` for an array's
 * element). AJV's coercion reads such text with Number(), so `page=1e3` was page 1000,
 * `0x10` 16 and ` 2` or `2.0` 2, while `abc` was refused. An empty value is left to the
 * schema, as before.
 */
function unplainIntegers(values: unknown, schema: unknown, out: Record<string, string>): void {
  const fields = integerFields(schema);
  if (fields.length === 0 || typeof values !== "object" || values === null) return;
  const refuse = (path: string) => (out[path] ??= `The ${path.replaceAll("_", " ")} must be an integer.`);
  const unplain = (t: unknown) => typeof t === "string" && t !== "" && !PLAIN_INTEGER.test(t);
  const properties = (schema as ObjectSchema).properties ?? {};
  for (const field of fields) {
    const value = (values as Record<string, unknown>)[field];
    // A lone value where the schema wants an array is coerced to its first element.
    if (Array.isArray(value)) value.forEach((t, i) => unplain(t) && refuse(`${field}.${i}`));
    else if (unplain(value)) refuse(properties[field]!.type === "array" ? `${field}.0` : field);
  }
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
 * Integers: a query or body field the route's schema types as an integer, sent as text,
 * is written in plain decimal digits (see unplainIntegers). Checked in preValidation, on
 * the text as sent, before AJV coerces it; answered with AJV's errors when validation
 * fails (the error handler asks inputRuleErrors), else before the handler.
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
      const schema = req.routeOptions.schema;
      const integers: Record<string, string> = {};
      unplainIntegers(req.query, schema?.querystring, integers);
      unplainIntegers(req.body, schema?.body, integers);
      if (Object.keys(integers).length > 0) foundBeforeValidation.set(req, integers);
    });
    app.addHook("preHandler", async (req: FastifyRequest) => assertNoErrors({ ...nonFiniteFields(req.params, req.query, req.body), ...inputRuleErrors(req) }));
  },
  { name: "input-rules", dependencies: ["body-parsers"] },
);
