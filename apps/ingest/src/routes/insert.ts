import { FailureError, InvalidInputError } from "@fleet/contracts";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { insertOne } from "../insert-one.js";
import { untypedBodyIsForm } from "../plugins/untyped-form.js";
import { parsePosition, type ParsedPosition } from "../parse.js";
import { requestFields } from "../request-fields.js";
import { BusUnavailableError, type Publisher } from "../publisher.js";

export const BATCH_MAX_POSITIONS = 10_000;
const BATCH_BODY_LIMIT = 32 * 1024 * 1024;


/**
 * insert.php where a client built from the vendor's Swagger looks for it too: under the
 * Swagger's basePath, and as `insert.php2`, its second description of the same query fields.
 * Devices use `/insert.php` (the fast path); these go through the router.
 */
export const INSERT_ALIASES = ["/insert.php2", "/api/insert.php", "/api/insert.php2"] as const;

/** One position per request: the spec's GET, and the same fields as a form or JSON POST. */
export const insertRoutes: FastifyPluginAsync<{ publisher: Publisher }> = async (app, { publisher }) => {
  const single = async (fields: unknown, reply: FastifyReply) => {
    const answer = await insertOne(publisher, fields);
    if (answer.busError) reply.log.warn({ err: answer.busError.cause }, "bus did not take positions");
    return reply.code(answer.statusCode).type("application/json").send(answer.body);
  };

  for (const path of ["/insert.php", ...INSERT_ALIASES]) {
    app.get(path, (req, reply) => single(req.query, reply));
    app.post(path, { onRequest: untypedBodyIsForm }, (req, reply) => single(requestFields(req), reply));
  }

  /** Gateways: a JSON array or NDJSON of positions; valid ones are taken even when others are not. */
  app.post("/insert", { bodyLimit: BATCH_BODY_LIMIT }, async (req) => {
    const items = req.body;
    if (!Array.isArray(items)) throw new InvalidInputError({ body: "Send a JSON array or NDJSON of positions." });
    if (items.length > BATCH_MAX_POSITIONS) throw new FailureError(413, `At most ${BATCH_MAX_POSITIONS} positions per request.`);
    const accepted: ParsedPosition[] = [];
    const rejected: { index: number; errors: Record<string, string> }[] = [];
    const now = Date.now();
    items.forEach((item, index) => {
      const parsed = item instanceof NdjsonLineError ? { ok: false as const, errors: { line: item.message } } : parsePosition(item, now);
      if (parsed.ok) accepted.push(parsed.position);
      else rejected.push({ index, errors: parsed.errors });
    });
    try {
      await publisher.publish(accepted);
    } catch (err) {
      if (!(err instanceof BusUnavailableError)) throw err;
      req.log.warn({ err: err.cause }, "bus did not take positions");
      throw new FailureError(503, err.message);
    }
    return { status: 1, accepted: accepted.length, rejected };
  });
};

/** A line of an NDJSON body that is not JSON: rejected alone, its neighbours still count. */
export class NdjsonLineError {
  constructor(readonly message: string) {}
}

export function parseNdjson(body: string): unknown[] {
  const out: unknown[] = [];
  for (const line of body.split("\n")) {
    const t = line.trim();
    if (t === "") continue;
    try {
      out.push(JSON.parse(t));
    } catch {
      out.push(new NdjsonLineError("This line is not valid JSON."));
    }
  }
  return out;
}
