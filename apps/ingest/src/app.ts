import formbody from "@fastify/formbody";
import type { FastifyPluginAsync } from "fastify";
import { installErrorHandling } from "./plugins/errors.js";
import type { Publisher } from "./publisher.js";
import { insertRoutes, parseNdjson } from "./routes/insert.js";

export interface IngestAppOptions {
  publisher: Publisher;
}

/** The ingest app as a plugin: the server file and the all-in-one process both register it. */
export const ingestApp: FastifyPluginAsync<IngestAppOptions> = async (app, opts) => {
  installErrorHandling(app);
  await app.register(formbody);
  app.addContentTypeParser(["application/x-ndjson", "application/ndjson", "application/jsonl"], { parseAs: "string", bodyLimit: 32 * 1024 * 1024 }, (_req, body, done) => {
    done(null, parseNdjson(body as string));
  });
  await app.register(insertRoutes, { publisher: opts.publisher });
};
