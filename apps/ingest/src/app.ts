import compress from "@fastify/compress";
import formbody from "@fastify/formbody";
import { HealthResponseSchema, bodyDecoding } from "@fleet/contracts";
import type { FastifyPluginAsync } from "fastify";
import { installErrorHandling } from "./plugins/errors.js";
import type { Publisher } from "./publisher.js";
import { parseQuery } from "./query.js";
import { insertRoutes, parseNdjson } from "./routes/insert.js";
import { osmandRoutes } from "./routes/osmand.js";

export interface IngestAppOptions {
  publisher: Publisher;
}

/** The ingest app as a plugin: the server file and the all-in-one process both register it. */
export const ingestApp: FastifyPluginAsync<IngestAppOptions> = async (app, opts) => {
  installErrorHandling(app);
  // Gateways may send a batch compressed (Content-Encoding: gzip); the answers are too small to compress.
  await app.register(compress, { globalCompression: false, ...bodyDecoding });
  // A form POST decoded as the GET's query is (query.ts): the same fields read the same, and
  // an escape that is not UTF-8 (`uniqueId=%FF%FE`) becomes U+FFFD, which parse refuses,
  // rather than formbody's default keeping the whole value as its literal text.
  await app.register(formbody, { parser: parseQuery });
  app.addContentTypeParser(["application/x-ndjson", "application/ndjson", "application/jsonl"], { parseAs: "string", bodyLimit: 32 * 1024 * 1024 }, (_req, body, done) => {
    done(null, parseNdjson(body as string));
  });
  await app.register(insertRoutes, { publisher: opts.publisher });
  await app.register(osmandRoutes, { publisher: opts.publisher });
  // For a container's health check: 200 while the server takes requests (a bus that is down is each insert's 503).
  app.get("/health", { schema: { response: { 200: HealthResponseSchema } } }, async () => ({ status: 1 as const }));
};
