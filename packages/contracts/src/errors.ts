/*
 * The one vocabulary of failures a request can end in. Domain code throws these; each
 * app's error handler turns them into the spec's bodies (`failureOf`), so no route
 * writes a failure body by hand.
 */
import { STATUS_CODES } from "node:http";

/** Bad input, field by field: 422 `{status: 0, errors: {field: message}}`. */
export class InvalidInputError extends Error {
  override readonly name = "InvalidInputError";
  constructor(readonly errors: Readonly<Record<string, string>>) {
    super(`Invalid input: ${Object.keys(errors).join(", ")}`);
  }
}

/**
 * A record that does not exist, is deleted, or is another user's: 404 `{status: 0, error:
 * "<What> not found."}`. The three look alike on purpose, so ids cannot be probed.
 */
export class NotFoundError extends Error {
  override readonly name = "NotFoundError";
  constructor(readonly what: string) {
    super(`${what} not found.`);
  }
}

/** Any other refusal with one message and its status: 400, 401, 403, 413, 502, 503 … */
export class FailureError extends Error {
  override readonly name = "FailureError";
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A login refused: wrong password, unknown email, or an account that may not sign in (the
 * three alike). 401 `{status: 0, message: "Wrong credentials.", error: "Wrong credentials."}`:
 * the vendor's login answers in `message`, which its clients read; `error` carries the same
 * text, as every other failure does.
 */
export class WrongCredentialsError extends Error {
  override readonly name = "WrongCredentialsError";
  constructor() {
    super("Wrong credentials.");
  }
}

/** Throws the 422 when `errors` names any field; the usual end of a check that gathers them all. */
export function assertNoErrors(errors: Readonly<Record<string, string>>): void {
  if (Object.keys(errors).length > 0) throw new InvalidInputError(errors);
}

export type FailureBody = { status: 0; errors: Record<string, string> } | { status: 0; error: string } | { status: 0; message: string; error: string };

/** The longest path segment routed (an id, a file name); a longer one is refused before any route (frameworkFailure). */
export const MAX_PATH_SEGMENT = 1000;

/**
 * The status and body for the errors fastify meets before any route runs: a path whose
 * %-escapes are not UTF-8, or a segment over MAX_PATH_SEGMENT. fastify's own bodies are in
 * another shape and echo the whole URL back, api hash included.
 */
export function frameworkFailure(err: { code?: string }): { statusCode: number; body: FailureBody } {
  if (err.code === "FST_ERR_MAX_PARAM_LENGTH") return { statusCode: 414, body: { status: 0, error: `A part of the URL's path is longer than ${MAX_PATH_SEGMENT} characters.` } };
  if (err.code === "FST_ERR_BAD_URL") return { statusCode: 400, body: { status: 0, error: "The URL's path is not valid: a %-escape in it is not UTF-8." } };
  return { statusCode: 500, body: { status: 0, error: "Internal server error." } };
}

/**
 * The status and body for a request node's HTTP parser refuses before fastify sees it:
 * headers (the URL among them) over node's 16 KB, a request that takes too long to arrive,
 * or bytes that are not HTTP.
 */
export function clientFailure(err: { code?: string }): { statusCode: number; body: FailureBody } {
  if (err.code === "HPE_HEADER_OVERFLOW") return { statusCode: 431, body: { status: 0, error: "The request's URL and headers are over 16 KB: send long fields in a POST body." } };
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") return { statusCode: 408, body: { status: 0, error: "The request took too long to arrive." } };
  return { statusCode: 400, body: { status: 0, error: "The request is not valid HTTP." } };
}

/**
 * fastify's `clientErrorHandler`: what fastify's default writes, in the spec's failure shape
 * (fastify's own is `{error, message, statusCode}`).
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: { destroyed: boolean; writable: boolean; write(s: string): unknown; destroy(e?: Error): unknown }): void {
  // A reset connection has nobody to answer.
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const { statusCode, body } = clientFailure(err);
  const text = JSON.stringify(body);
  if (socket.writable) socket.write(`HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`);
  socket.destroy(err);
}

/** The status and body for one of the vocabulary's errors, undefined for anything else. */
export function failureOf(err: unknown): { statusCode: number; body: FailureBody } | undefined {
  if (err instanceof InvalidInputError) return { statusCode: 422, body: { status: 0, errors: { ...err.errors } } };
  if (err instanceof NotFoundError) return { statusCode: 404, body: { status: 0, error: err.message } };
  if (err instanceof FailureError) return { statusCode: err.statusCode, body: { status: 0, error: err.message } };
  if (err instanceof WrongCredentialsError) return { statusCode: 401, body: { status: 0, message: err.message, error: err.message } };
  return undefined;
}

/** The encodings a request body may come in (its Content-Encoding), besides none. */
export const BODY_ENCODINGS = ["gzip", "deflate", "br"] as const;

/**
 * How a server decodes compressed request bodies (@fastify/compress's request options): the
 * encodings it reads, and its refusals in the failure shape, which name what to send instead
 * rather than echo the header. A decoded body is held to the route's body limit.
 */
export const bodyDecoding = {
  requestEncodings: [...BODY_ENCODINGS],
  onUnsupportedRequestEncoding: () => new FailureError(415, `The body's Content-Encoding is not one this server reads: send the body as it is, or as ${BODY_ENCODINGS.join(", ")}.`),
  // Merged into the decoder's own error (Object.assign), so a plain object: an Error's message is not enumerable, and would not be copied.
  onInvalidRequestPayload: (encoding: string): Error & { statusCode: number } => ({ name: "FailureError", statusCode: 400, message: `The body could not be decoded as ${encoding}, as its Content-Encoding says.` }),
};
