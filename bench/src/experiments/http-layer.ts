/**
 * What the HTTP layer costs on the hot GET, with no bus at all (the publisher answers at
 * once): the bare baseline; the ingest server as deployed ("fast": GET answered before
 * fastify); the same app with fastify's route answering ("fastify", and variants of its
 * options); the same parsing behind a plain node:http handler ("raw"). Interleaved rounds,
 * the load of `pnpm bench:ingest`.
 *   VARIANTS=bare,fast,fastify,raw ROUNDS=3 pnpm --filter @fleet/bench experiment src/experiments/http-layer.ts
 * Measured 2026-11-21, while fastify still parsed with fast-querystring: bare 22.5–24,
 * fast 25–26, fastify 30.5–32, raw 26–28 µs/req; node:querystring instead −0.9 (the
 * ingest server has used it since), no logger −1.8, a counter for request ids ±0.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Type } from "@sinclair/typebox";
import { loadConfigOrExit } from "@fleet/config";
import Fastify, { type FastifyServerOptions } from "fastify";
import { pino } from "pino";
import { ingestApp, ingestServerOptions, parsePosition, type Publisher } from "@fleet/ingest";
import querystring from "node:querystring";
import { fmt, measure } from "../measure.js";
import { startBareServer, startIngestApp, type Running } from "../servers.js";
import { loadBenchSettings } from "../settings.js";

const settings = loadBenchSettings();
const env = loadConfigOrExit(Type.Object({ VARIANTS: Type.String({ default: "bare,fast,fastify,raw" }), ROUNDS: Type.Integer({ minimum: 1, default: 2 }) }));
const t0 = Date.now();
const log = (line: string) => console.log(`[exp ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${line}`);
const noBus: Publisher = { publish: async () => {}, close: async () => {} };
/** Answers every 2 ms, all waiting requests at once: the shape of a Kafka ack, without Kafka. */
function tickingPublisher(): Publisher {
  let waiting: (() => void)[] = [];
  const timer = setInterval(() => {
    const now = waiting;
    waiting = [];
    for (const resolve of now) resolve();
  }, 2);
  return { publish: () => new Promise<void>((resolve) => waiting.push(resolve)), close: async () => clearInterval(timer) };
}
const OK = '{"status":1}';

async function rawServer(): Promise<Running> {
  const server = http.createServer((req, res) => {
    const url = req.url!;
    const q = url.indexOf("?");
    const parsed = parsePosition(querystring.parse(q < 0 ? "" : url.slice(q + 1)));
    if (!parsed.ok) {
      res.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify({ status: 0, errors: parsed.errors }));
      return;
    }
    noBus.publish([parsed.position]).then(() => res.writeHead(200, { "content-type": "application/json", "content-length": OK.length }).end(OK));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: async () => { server.closeAllConnections(); server.close(); } };
}

/** The ingest app in fastify with the server's options changed by `change`. */
async function fastifyWith(change: (o: FastifyServerOptions) => FastifyServerOptions): Promise<Running> {
  const options = ingestServerOptions(pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: false })), noBus);
  const app = Fastify(change(options as FastifyServerOptions));
  await app.register(ingestApp, { publisher: noBus });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
}

let counter = 0;
const fastifyOnly = (o: FastifyServerOptions) => ({ ...o, serverFactory: undefined });
const variants: Record<string, () => Promise<Running>> = {
  bare: startBareServer,
  fast: () => startIngestApp(noBus),
  "fast-ticking": () => startIngestApp(tickingPublisher()),
  fastify: () => startIngestApp(noBus, { fastifyOnly: true }),
  raw: rawServer,
  "fastify-counterid": () => fastifyWith((o) => ({ ...fastifyOnly(o), genReqId: () => String(++counter) })),
  "fastify-nologger": () => fastifyWith((o) => ({ ...fastifyOnly(o), loggerInstance: undefined, childLoggerFactory: undefined, logger: false })),
};
const results: { name: string; rps: number; cpu: number }[] = [];
const opts = { durationS: settings.BENCH_DURATION_S, warmupS: settings.BENCH_WARMUP_S, log };
for (let round = 0; round < env.ROUNDS; round++) {
  for (const name of env.VARIANTS.split(",")) {
    const server = await variants[name]!();
    try {
      const r = await measure(name, server, { kind: "traccar-get", connections: settings.BENCH_CONNECTIONS, devices: settings.BENCH_DEVICES, fixTime: Date.now() - 60_000 }, opts);
      results.push({ name, rps: r.rps, cpu: r.serverCpuUsPerReq ?? NaN });
    } finally {
      await server.close();
    }
  }
}
for (const r of results) console.log(`${r.name.padEnd(10)} ${fmt(r.rps).padStart(8)} req/s ${fmt(r.cpu, 1).padStart(6)} µs/req`);
process.exit(0);
