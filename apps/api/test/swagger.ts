/*
 * The vendor's Swagger (read from /work/shared/reference) as a test oracle: where an answer
 * breaks the response schema the Swagger gives for its path, by a small checker of the
 * Swagger 2.0 keywords those schemas use.
 */
import { readFileSync } from "node:fs";
import { expect } from "vitest";

const SWAGGER_PATH = "/work/shared/reference/gpswox-swagger.json";

export type JsonSchema = { [keyword: string]: unknown };
interface Swagger {
  paths: Record<string, Record<string, { responses: Record<string, { schema?: JsonSchema }> }>>;
  definitions: Record<string, JsonSchema>;
}

export const swagger = JSON.parse(readFileSync(SWAGGER_PATH, "utf8")) as Swagger;

/*
 * The readings of the Swagger that are not literal. Its device definition is typed from a
 * single example, so the pivot's optional ids carry that example's type: group_id and
 * timezone_id "null". They are ids or null (no group, the user's timezone), which is how the
 * Device record of get_devices and get_history answers them; here they are read as "string
 * or null". current_driver_id is read as typed, a string ("0" for no driver).
 */
const devicePivot = (swagger.definitions.device!.properties as Record<string, { properties: Record<string, JsonSchema> }>).pivot!.properties;
for (const id of ["group_id", "timezone_id"]) devicePivot[id] = { type: ["string", "null"] };

/*
 * The live lists (get_devices, get_devices_latest) inline their own copy of that record as
 * `device_data`, typed from the same example, with group_id and current_driver_id on the
 * record as well as on the pivot: those get the same reading. Its user_id is left as typed:
 * the example's null, which the API sends.
 */
type Props = Record<string, JsonSchema & { properties?: Props; items?: JsonSchema & { properties?: Props } }>;
const getSchema = (path: string) => swagger.paths[path]!.get!.responses["200"]!.schema as JsonSchema & { properties?: Props; items?: JsonSchema & { properties?: Props } };
for (const deviceData of [getSchema("/get_devices").items!.properties!.items!.items!.properties!.device_data!, getSchema("/get_devices_latest").properties!.items!.items!.properties!.device_data!]) {
  const record = deviceData.properties!;
  record.group_id = { type: ["string", "null"] };
  for (const id of ["group_id", "timezone_id"]) record.pivot!.properties![id] = { type: ["string", "null"] };
}

/**
 * Keywords that say nothing about what is valid. `format` is one: the task's times are
 * "date-time" there, but the API answers them `YYYY-MM-DD HH:MM:SS` in the user's timezone
 * on purpose, like every other time in the vendor's examples (decisions.md, "Date-times on
 * input").
 */
const NOTES = new Set(["title", "description", "example", "examples", "format"]);

const CHECKED = new Set(["$ref", "type", "properties", "items", "allOf", "enum", "required"]);

function typeOf(v: unknown): string[] {
  if (v === null) return ["null"];
  if (Array.isArray(v)) return ["array"];
  if (typeof v === "number") return Number.isInteger(v) ? ["integer", "number"] : ["number"];
  return [typeof v];
}

/**
 * Where `value` breaks `schema` (a Swagger 2.0 schema whose `$ref`s name `definitions`), as
 * `path: message` lines; none when it is valid. A keyword the checker does not know fails
 * loudly rather than passing unchecked.
 */
export function swaggerErrors(schema: JsonSchema, value: unknown, path = ""): string[] {
  const at = path || "/";
  for (const k of Object.keys(schema)) {
    if (!CHECKED.has(k) && !NOTES.has(k) && !k.startsWith("x-")) throw new Error(`${at}: the checker does not know the keyword ${k}`);
  }
  if (typeof schema.$ref === "string") {
    const name = /^#\/definitions\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name === undefined ? undefined : swagger.definitions[name];
    if (!target) throw new Error(`${at}: unknown $ref ${schema.$ref}`);
    return swaggerErrors(target, value, path);
  }
  const errors: string[] = [];
  for (const part of (schema.allOf as JsonSchema[] | undefined) ?? []) errors.push(...swaggerErrors(part, value, path));
  if (schema.type !== undefined) {
    const allowed = ([] as string[]).concat(schema.type as string | string[]);
    if (!typeOf(value).some((t) => allowed.includes(t))) return [...errors, `${at}: ${JSON.stringify(value)?.slice(0, 80)} is not ${allowed.join(" or ")}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const name of (schema.required as string[] | undefined) ?? []) if (!(name in record)) errors.push(`${at}: ${name} is missing`);
    for (const [name, sub] of Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {})) {
      if (name in record) errors.push(...swaggerErrors(sub, record[name], `${path}/${name}`));
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => errors.push(...swaggerErrors(schema.items as JsonSchema, item, `${path}/${i}`)));
  return errors;
}

/** Where `body` breaks the vendor Swagger's 200 answer of `path` (by GET unless `method` says). */
export function vendorErrors(path: string, body: unknown, method: "get" | "post" | "put" | "delete" = "get"): string[] {
  const schema = swagger.paths[path]?.[method]?.responses["200"]?.schema;
  expect(schema, `the Swagger's 200 schema of ${method.toUpperCase()} ${path}`).toBeDefined();
  return swaggerErrors(schema!, body);
}
