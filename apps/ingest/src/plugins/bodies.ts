import compress from "@fastify/compress";
import formbody from "@fastify/formbody";
import { bodyDecoding } from "@fleet/contracts";
import type { FastifyInstance } from "fastify";
import { parseQuery } from "../query.js";

/** How ingest's servers (its own port and the OsmAnd port) read a POST's body. */
export async function readBodies(app: FastifyInstance): Promise<void> {
  // A body may come compressed (a gateway's batch, Content-Encoding: gzip); the answers are too small to compress.
  await app.register(compress, { globalCompression: false, ...bodyDecoding });
  // A form POST decoded as the GET's query is (query.ts): the same fields read the same, and
  // an escape that is not UTF-8 (`uniqueId=%FF%FE`) becomes U+FFFD, which parse refuses,
  // rather than formbody's default keeping the whole value as its literal text.
  await app.register(formbody, { parser: parseQuery });
}
