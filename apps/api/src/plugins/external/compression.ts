import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { BODY_ENCODINGS, bodyDecoding } from "@fleet/contracts";

/**
 * Answers compressed for clients that accept it (@fastify/compress), as the vendor's servers
 * send them: a fleet's device list or a day's track is JSON that shrinks five to ten times,
 * which phones on mobile data feel. Only answers of 1 KB or more, and only types that
 * compress (JSON, HTML, CSV; not PDF, spreadsheets or images); larger ones are compressed off
 * the event loop, on libuv's threads. Bodies sent compressed are read too (bodyDecoding).
 */
async function compression(app: FastifyInstance) {
  await app.register(compress, { encodings: [...BODY_ENCODINGS], threshold: 1024, ...bodyDecoding });
}

export default fp(compression, { name: "compression" });
