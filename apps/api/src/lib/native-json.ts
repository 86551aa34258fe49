import type { FastifyReply, FastifyRequest } from "fastify";
import { AnswerBuffers } from "./answer-buffers.js";
import type { JsonOut } from "./json-write.js";

/** Answers of 1 MB and more (a few hundred devices) go through kept buffers, at most four at rest (~64 MB for 10,000-device lists). */
const buffers = new AnswerBuffers(1 << 20, 4);

/**
 * Route options that serialise a route's answers with JSON.stringify instead of fastify's
 * compiled serializer (fast-json-stringify), for the live list's two routes only.
 *
 * The compiled serializer builds its output in JavaScript, property by property; for a
 * fleet's whole list that is the slowest part of the answer. Measured on the same 10,000
 * items (14.5 MB, PGlite + memory, this 2-core machine): fast-json-stringify 230–410 ms,
 * JSON.stringify 37 ms. The response schema still declares the answer (the OpenAPI
 * document, the tests that check every answer against it), and the items are built by
 * typed functions from it (`Static<typeof LiveDeviceItemSchema>`), so nothing outside the
 * schema reaches them. See docs/decisions.md, "The live list at scale".
 */
export const nativeJson = {
  // A Buffer, which fastify sends as it is: node writing a 14.5 MB string to the socket cost
  // ~150 ms of CPU per answer (the header joined to it, then encoded), encoding it once ~10 ms.
  serializerCompiler: () => (data: unknown) => buffers.encode(JSON.stringify(data)) as unknown as string,
  // A pooled answer's buffer is reused only once the response has been handed to the
  // system in full ('finish'); an answer cut off by its client keeps its buffer to itself.
  onSend: (_req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    releaseOnFinish(reply, payload);
    done(null, payload);
  },
};

/** JSON written by hand (see json-write.ts), into a kept buffer. */
export const writeAnswer = (write: (out: JsonOut) => void): Buffer => buffers.write(write);

/** Gives an answer's kept buffer back once the answer is written out (nothing for other answers). */
export function releaseOnFinish(reply: FastifyReply, payload: unknown): void {
  if (buffers.isLent(payload)) reply.raw.once("finish", () => buffers.release(payload));
}
