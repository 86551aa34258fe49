import { HealthResponseSchema } from "@fleet/contracts";
import type { FastifyPluginAsync } from "fastify";
import { readBodies } from "./plugins/bodies.js";
import { installErrorHandling } from "./plugins/errors.js";
import type { Publisher } from "./publisher.js";
import { insertRoutes, parseNdjson } from "./routes/insert.js";
import { osmandRoutes } from "./routes/osmand.js";

export interface IngestAppOptions {
  publisher: Publisher;
}

/** The ingest app as a plugin: the server file and the all-in-one process both register it. */
export const ingestApp: FastifyPluginAsync<IngestAppOptions> = async (app, opts) => {
  installErrorHandling(app);
  await readBodies(app);
  app.addContentTypeParser(["application/x-ndjson", "application/ndjson", "application/jsonl"], { parseAs: "string", bodyLimit: 32 * 1024 * 1024 }, (_req, body, done) => {
    done(null, parseNdjson(body as string));
  });
  await app.register(insertRoutes, { publisher: opts.publisher });
  await app.register(osmandRoutes, { publisher: opts.publisher });
  // For a container's health check: 200 while the server takes requests (a bus that is down is each insert's 503).
  app.get("/health", { schema: { response: { 200: HealthResponseSchema } } }, async () => ({ status: 1 as const }));
};
