import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { publishParsed } from "../insert-one.js";
import { fromOsmand, osmandErrors } from "../osmand.js";
import { parsePosition, type ParseResult } from "../parse.js";
import { untypedBodyIsForm } from "../plugins/untyped-form.js";
import type { Publisher } from "../publisher.js";
import { requestFields } from "../request-fields.js";

/** Where phones running OsmAnd or Traccar Client send their fixes (their server URL is `http://<ingest>/osmand`). */
export const OSMAND_PATH = "/osmand";

const NO_LOCATION = { ok: false, errors: { lat: "The position has no location: lat and lon are both 0." } } as const;

const NOT_A_LOCATION = { ok: false, errors: { location: "The location must be an object with coords, as Traccar Client sends it." } } as const;

/** Traccar Client's JSON names the device `device_id`; without a `location` object it has no fix (rather than an `id` missing). */
const clientWithoutLocation = (f: Record<string, unknown>) =>
  f.device_id !== undefined && f.id === undefined && f.deviceid === undefined && (typeof f.location !== "object" || f.location === null || Array.isArray(f.location));

/** An OsmAnd request read and checked, its errors named as the request named its fields. */
function parseOsmand(fields: Record<string, unknown>): ParseResult {
  if (clientWithoutLocation(fields)) return NOT_A_LOCATION;
  const parsed = parsePosition(fromOsmand(fields));
  if (!parsed.ok) return { ...parsed, errors: osmandErrors(parsed.errors) };
  // Such apps send 0,0 before their first fix; Traccar gives it the last location, which ingest does not know.
  return parsed.position.latitude === 0 && parsed.position.longitude === 0 ? NO_LOCATION : parsed;
}

/**
 * The OsmAnd protocol (osmand.ts) at `paths`, by GET, or by POST as a form, as JSON (Traccar
 * Client) or with the fields in the query. Taken: 200 with an empty body, as Traccar answers
 * when no command waits (the body would be one). Refused: the failures insert.php gives.
 */
export const osmandRoutes: FastifyPluginAsync<{ publisher: Publisher; paths?: readonly string[] }> = async (app, { publisher, paths = [OSMAND_PATH] }) => {
  const take = async (fields: Record<string, unknown>, reply: FastifyReply) => {
    const answer = await publishParsed(publisher, parseOsmand(fields));
    if (answer.busError) reply.log.warn({ err: answer.busError.cause }, "bus did not take positions");
    if (answer.statusCode === 200) return reply.code(200).type("text/plain; charset=utf-8").send("");
    return reply.code(answer.statusCode).type("application/json").send(answer.body);
  };
  for (const path of paths) {
    app.get(path, (req, reply) => take(req.query as Record<string, unknown>, reply));
    app.post(path, { onRequest: untypedBodyIsForm }, (req, reply) => take(requestFields(req), reply));
  }
};
