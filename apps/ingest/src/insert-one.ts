import { parsePosition } from "./parse.js";
import { BusUnavailableError, type Publisher } from "./publisher.js";

/** The answer to one position, as JSON text: the fastify route and the fast GET path send the same bytes. */
export interface InsertAnswer {
  statusCode: 200 | 422 | 503;
  body: string;
  /** Set on 503: why the bus did not take the position, for the request's log line. */
  busError?: BusUnavailableError;
}

const OK: InsertAnswer = { statusCode: 200, body: '{"status":1}' };

/**
 * Checks one position's fields and waits until the bus holds it. Bad fields are a 422, a bus
 * that does not take it in time a 503; anything else is a bug and rejects.
 */
export async function insertOne(publisher: Publisher, fields: unknown): Promise<InsertAnswer> {
  const parsed = parsePosition(fields);
  if (!parsed.ok) return { statusCode: 422, body: JSON.stringify({ status: 0, errors: parsed.errors }) };
  try {
    await publisher.publish([parsed.position]);
  } catch (err) {
    if (err instanceof BusUnavailableError) return { statusCode: 503, body: JSON.stringify({ status: 0, error: err.message }), busError: err };
    throw err;
  }
  return OK;
}
