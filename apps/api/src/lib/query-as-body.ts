import type { FastifyRequest } from "fastify";

type Schema = { properties?: Record<string, unknown>; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] };

const fieldsBySchema = new WeakMap<object, ReadonlySet<string>>();

/** The top-level fields a body schema names, across the branches of a union. */
function fieldsOf(schema: Schema): ReadonlySet<string> {
  let fields = fieldsBySchema.get(schema);
  if (!fields) {
    const names = new Set<string>();
    const walk = (s: Schema) => {
      for (const name of Object.keys(s.properties ?? {})) names.add(name);
      for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) walk(branch);
    };
    walk(schema);
    fields = names;
    fieldsBySchema.set(schema, fields);
  }
  return fields;
}

/**
 * The vendor's API is Laravel's, which reads a request's input from its body and its query as
 * one (`$request->all()`, the body's value winning), so its clients may post a form with its
 * fields in the query string. For a call with a body schema, the fields that schema names and
 * the query holds but the body does not are copied into the body before validation, and no
 * body at all is an empty one. A body that is not an object is left to fail as it does.
 */
export function queryIntoBodyFields(req: FastifyRequest): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const schema = req.routeOptions.schema?.body as Schema | undefined;
  const query = req.query as Record<string, unknown> | undefined;
  if (!schema || typeof schema !== "object" || !query || typeof query !== "object") return;
  // No body at all is an empty form, as Laravel reads it: each missing field is named.
  if (req.body === undefined) req.body = {};
  const fields = fieldsOf(schema);
  const present = Object.keys(query).filter((k) => fields.has(k) && query[k] !== undefined);
  if (present.length === 0) return;
  if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) return;
  const body = req.body as Record<string, unknown>;
  for (const k of present) if (body[k] === undefined) body[k] = query[k];
}
