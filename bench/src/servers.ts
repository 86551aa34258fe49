import http from "node:http";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { pino } from "pino";
import type { BusProducer } from "@fleet/bus";
import type { IngestEnv } from "@fleet/config";
import { createPublisher, ingestApp, ingestServerOptions, type Publisher } from "@fleet/ingest";
import { countingProducer, type SendCounter } from "./counting.js";

export interface Running {
  url: string;
  close(): Promise<void>;
  /** Bus sends so far and the messages they carried, where the server publishes. */
  sent?: SendCounter;
}

const OK = '{"status":1}';

/** The baseline: a bare node:http server that parses the URL and answers like ingest does. */
export async function startBareServer(): Promise<Running> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/insert.php" && url.searchParams.has("uniqueId")) {
      res.writeHead(200, { "content-type": "application/json", "content-length": OK.length });
      res.end(OK);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  // Closed once when its phase ends and again by the bench's cleanup; the second is a no-op.
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      })),
  };
}

/**
 * The real ingest app, wired as apps/ingest/src/server.ts wires it (same fastify options,
 * same publisher settings from IngestEnvSchema), with the bench's own topic instead of
 * positions.raw.
 */
export async function startIngestServer(busProducer: BusProducer, config: IngestEnv, topic: string): Promise<Running> {
  const sent: SendCounter = { sends: 0, messages: 0, sendMs: 0 };
  const publisher = createPublisher({
    producer: countingProducer(busProducer, sent),
    topic,
    batchMax: config.INGEST_BATCH_MAX,
    lingerMs: config.INGEST_LINGER_MS,
    sendTimeoutMs: config.INGEST_SEND_TIMEOUT_MS,
  });
  return { ...(await startIngestApp(publisher)), sent };
}

/**
 * The ingest app over any publisher (experiments swap in variants). Closing closes the publisher.
 * fastify gets the server file's options (pino at info, access logs off, request ids, lazy
 * request loggers, the fast GET path), logging to /dev/null here; `eagerLoggers` gives each
 * request fastify's own child logger instead, to measure what the lazy ones save, and
 * `fastifyOnly` leaves the GET to fastify's route, to measure what the fast path saves.
 */
export async function startIngestApp(publisher: Publisher, opts: { eagerLoggers?: boolean; fastifyOnly?: boolean } = {}): Promise<Running> {
  const options = ingestServerOptions(pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: false })), publisher);
  const app = Fastify({
    ...options,
    ...(opts.eagerLoggers ? { childLoggerFactory: undefined } : {}),
    ...(opts.fastifyOnly ? { serverFactory: undefined } : {}),
  });
  await app.register(ingestApp, { publisher });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  let closed = false;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await publisher.close();
    },
  };
}
