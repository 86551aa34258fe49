import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { FailureError } from "@fleet/contracts";
import { expandKeys } from "../../lib/expand-keys.js";

/** Limits on multipart bodies: no endpoint takes more than a few fields and small files. */
export const MULTIPART_LIMITS = { fieldNameSize: 200, fieldSize: 1024 * 1024, fields: 2000, fileSize: 5 * 1024 * 1024, files: 5, parts: 2005, headerPairs: 200 };

// Requests whose multipart body is being read. The multipart plugin's hook throws plain
// errors (no status) for a missing boundary or a truncated body; the error handler asks
// here so those answer 400 rather than 500.
const readingMultipart = new WeakSet<FastifyRequest>();

/** Whether `req` failed while its multipart body was being read: the client's fault. */
export function failedReadingMultipart(req: FastifyRequest): boolean {
  return readingMultipart.has(req);
}

/**
 * Whether a parsed query or body holds U+FFFD: the parsers decode bytes that are not
 * UTF-8 to it, so it marks text that would be stored garbled. Refusing it keeps such
 * bytes out of the records (a client sending U+FFFD itself is not a real case).
 */
export function hasUndecodableText(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\uFFFD");
  if (depth > 8 || value === null || typeof value !== "object" || Buffer.isBuffer(value)) return false;
  for (const [k, v] of Object.entries(value)) if (k.includes("\uFFFD") || hasUndecodableText(v, depth + 1)) return true;
  return false;
}

/**
 * Every POST takes multipart, urlencoded or JSON. Form bodies and query strings are
 * expanded from bracketed names (`devices[]`, `groups[0][id]`) before validation, so
 * one schema serves all three content types.
 */
export default fp(
  async function bodyParsers(app: FastifyInstance) {
    await app.register(formbody);
    // Registered before multipart, so it runs just before multipart's own preValidation hook.
    app.addHook("preValidation", async (req) => {
      if (req.isMultipart()) readingMultipart.add(req);
    });
    // attachFieldsToBody consumes every part (files included) inside the hook, so no stream is left unread.
    await app.register(multipart, { attachFieldsToBody: "keyValues", limits: MULTIPART_LIMITS });
    app.addHook("preValidation", async (req) => {
      readingMultipart.delete(req);
      if (hasUndecodableText(req.query) || hasUndecodableText(req.body)) throw new FailureError(400, "The request contains bytes that are not valid UTF-8.");
      if (req.query && typeof req.query === "object") req.query = expandKeys(req.query as Record<string, unknown>);
      const type = req.headers["content-type"] ?? "";
      if (req.body && typeof req.body === "object" && !Array.isArray(req.body) && (type.startsWith("multipart/") || type.startsWith("application/x-www-form-urlencoded"))) {
        req.body = expandKeys(req.body as Record<string, unknown>);
      }
    });
  },
  { name: "body-parsers" },
);
