import Fastify, { type FastifyBaseLogger } from "fastify";
import { readBodies } from "./plugins/bodies.js";
import { installErrorHandling } from "./plugins/errors.js";
import type { Publisher } from "./publisher.js";
import { OSMAND_PATH, osmandRoutes } from "./routes/osmand.js";
import { phoneServerOptions } from "./server-options.js";

export interface OsmandServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The OsmAnd protocol on a port of its own (OSMAND_PORT), at its root as Traccar's port 5055
 * takes it, and at /osmand: a phone that reported to a Traccar server needs only the host in
 * its server URL changed. Nothing else answers there.
 */
export async function startOsmandServer(opts: { logger: FastifyBaseLogger; publisher: Publisher; host: string; port: number }): Promise<OsmandServer> {
  const app = Fastify(phoneServerOptions(opts.logger));
  installErrorHandling(app);
  await readBodies(app);
  await app.register(osmandRoutes, { publisher: opts.publisher, paths: ["/", OSMAND_PATH] });
  try {
    return { url: await app.listen({ host: opts.host, port: opts.port }), close: () => app.close() };
  } catch (err) {
    await app.close();
    throw err;
  }
}
