import querystring from "node:querystring";
import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { FailureError, findUndecodableText, undecodableTextMessage } from "@fleet/contracts";
import { expandKeys } from "../../lib/expand-keys.js";
import { getJsonBodyIntoQuery } from "../../lib/get-json-body.js";
import { queryIntoBodyFields } from "../../lib/query-as-body.js";

const MB = 1024 * 1024;

/** Limits on multipart bodies: no endpoint takes more than a few fields and small files. */
export const MULTIPART_LIMITS = { fieldNameSize: 200, fieldSize: MB, fields: 2000, fileSize: 5 * MB, files: 5, parts: 2005, headerPairs: 200 };

/**
 * What the multipart plugin refuses ("reach files limit", "request file too large"), said
 * the way the API says the rest, with the limit; undefined for any other error.
 */
export function multipartRefusal(code: string | undefined): string | undefined {
  switch (code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return `A file in the body is too large: at most ${MULTIPART_LIMITS.fileSize / MB} MB.`;
    case "FST_FILES_LIMIT":
      return `The body holds too many files: at most ${MULTIPART_LIMITS.files}.`;
    case "FST_FIELDS_LIMIT":
      return `The body holds too many fields: at most ${MULTIPART_LIMITS.fields}.`;
    case "FST_PARTS_LIMIT":
      return `The body holds too many parts: at most ${MULTIPART_LIMITS.parts}.`;
    case "FST_PROTO_VIOLATION":
      return "A field of the body may not be named __proto__ or constructor.";
    default:
      return undefined;
  }
}

// Requests whose multipart body is being read. The multipart plugin's hook throws plain
// errors (no status) for a missing boundary or a truncated body; the error handler asks
// here so those answer 400 rather than 500.
const readingMultipart = new WeakSet<FastifyRequest>();

/** Whether `req` failed while its multipart body was being read: the client's fault. */
export function failedReadingMultipart(req: FastifyRequest): boolean {
  return readingMultipart.has(req);
}

/**
 * The 400 for a query or body holding U+FFFD, naming the first field that does: the
 * parsers decode bytes that are not UTF-8 to it, so it marks text that would be stored
 * garbled (an imei listed as "��").
 */
function undecodableField(req: FastifyRequest): FailureError | undefined {
  for (const part of [req.query, req.body]) {
    const path = findUndecodableText(part);
    if (path !== undefined) return new FailureError(400, undecodableTextMessage(path === "" ? "request" : path.replaceAll("_", " ")));
  }
  return undefined;
}

/**
 * Form bodies as node's querystring decodes them, not formbody's default (fast-querystring):
 * a percent escape that is not UTF-8 (`imei=%FF%FE…`) becomes U+FFFD, which the check above
 * refuses naming the field, where fast-querystring kept the whole value as its literal text
 * ("%FF%FE…", stored as an imei no tracker sends). No cut at 1000 fields (querystring's
 * default): the body limit bounds them.
 */
function parseForm(body: string): Record<string, unknown> {
  return querystring.parse(body, "&", "=", { maxKeys: 0 });
}

/** The body types the API reads; any other is a 415 that lists these. */
export const ACCEPTED_BODY_TYPES = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"] as const;

/** The 415's message: the type sent (without its parameters) and the ones read. */
export function unsupportedTypeMessage(contentType: string | undefined): string {
  const sent = contentType?.split(";")[0]?.trim() || "(none)";
  return `Unsupported content type ${sent}: send the body as ${ACCEPTED_BODY_TYPES.slice(0, -1).join(", ")} or ${ACCEPTED_BODY_TYPES.at(-1)!}.`;
}

/**
 * Every POST takes multipart, urlencoded or JSON. Form bodies and query strings are
 * expanded from bracketed names (`devices[]`, `groups[0][id]`) before validation, so
 * one schema serves all three content types, and a body's fields may come in the query
 * (query-as-body.ts); a GET's JSON body is read into its query (get-json-body.ts). fastify's own text/plain parser is removed:
 * it made a string no body schema takes, so a text/plain login answered "The body must be
 * an object."; now it is a 415 that says which types are read.
 */
export default fp(
  async function bodyParsers(app: FastifyInstance) {
    app.removeContentTypeParser("text/plain");
    await app.register(formbody, { parser: parseForm });
    // Registered before multipart, so it runs just before multipart's own preValidation hook.
    app.addHook("preValidation", async (req) => {
      if (req.isMultipart()) readingMultipart.add(req);
    });
    // attachFieldsToBody consumes every part (files included) inside the hook, so no stream is left unread.
    await app.register(multipart, { attachFieldsToBody: "keyValues", limits: MULTIPART_LIMITS });
    app.addHook("preValidation", async (req) => {
      readingMultipart.delete(req);
      const undecodable = undecodableField(req);
      if (undecodable) throw undecodable;
      if (req.query && typeof req.query === "object") req.query = expandKeys(req.query as Record<string, unknown>);
      await getJsonBodyIntoQuery(req);
      const type = req.headers["content-type"] ?? "";
      if (req.body && typeof req.body === "object" && !Array.isArray(req.body) && (type.startsWith("multipart/") || type.startsWith("application/x-www-form-urlencoded"))) {
        req.body = expandKeys(req.body as Record<string, unknown>);
      }
      queryIntoBodyFields(req);
    });
  },
  { name: "body-parsers" },
);
