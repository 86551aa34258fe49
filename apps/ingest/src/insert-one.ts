import { FailureError, InvalidInputError, failureOf } from "@fleet/contracts";
import { parsePosition, type ParseResult } from "./parse.js";
import { BusUnavailableError, type Publisher } from "./publisher.js";

/** The answer to one position, as JSON text: the fastify route and the fast GET path send the same bytes. */
export interface InsertAnswer {
  statusCode: number;
  body: string;
  /** Set on 503: why the bus did not take the position, for the request's log line. */
  busError?: BusUnavailableError;
}

const OK: InsertAnswer = { statusCode: 200, body: '{"status":1}' };

/** A failure in the contracts' words, as text: the fast GET path answers before fastify's error handler could. */
function failed(err: InvalidInputError | FailureError): { statusCode: number; body: string } {
  const { statusCode, body } = failureOf(err)!;
  return { statusCode, body: JSON.stringify(body) };
}

/**
 * Checks one position's fields and waits until the bus holds it. Bad fields are a 422, an id
 * that is not UTF-8 a 400, a bus that does not take it in time a 503; anything else is a bug
 * and rejects.
 */
export async function insertOne(publisher: Publisher, fields: unknown): Promise<InsertAnswer> {
  return publishParsed(publisher, parsePosition(fields));
}

/** insertOne from a position already parsed (a protocol that names its fields otherwise renames them in the errors first). */
export async function publishParsed(publisher: Publisher, parsed: ParseResult): Promise<InsertAnswer> {
  if (!parsed.ok) return failed(parsed.malformed === undefined ? new InvalidInputError(parsed.errors) : new FailureError(400, parsed.malformed));
  try {
    await publisher.publish([parsed.position]);
  } catch (err) {
    if (err instanceof BusUnavailableError) return { ...failed(new FailureError(503, err.message)), busError: err };
    throw err;
  }
  return OK;
}
