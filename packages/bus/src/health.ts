import http from "node:http";
import type { AddressInfo } from "node:net";

/** Where a consumer app is in its life: only "up" is healthy. */
export type HealthState = "starting" | "up" | "stopping";

export interface HealthServer {
  /** `http://host:port`, the port the server was given or, for 0, the one it got. */
  url: string;
  close(): Promise<void>;
}

export interface HealthOptions {
  /** The app, as the 503's message names it: "the tracker". */
  name: string;
  host: string;
  port: number;
  state: () => HealthState;
}

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The health endpoint of an app that serves no HTTP otherwise (the bus consumers: tracker
 * and rules), for a container's health check or an orchestrator's probe, with the bodies
 * the API's and ingest's `/health` give: `GET /health` (or HEAD) answers 200 `{status: 1}`
 * while `state()` is "up", else 503 `{status: 0, error}` saying it is starting or stopping;
 * any other request is a 404. A consumer that stops for good exits the process
 * (exitOnFatal), so "up" needs no probe of the broker of its own.
 */
export async function serveHealth(opts: HealthOptions): Promise<HealthServer> {
  const server = http.createServer((req, res) => {
    const path = req.url?.split("?")[0];
    const send = (code: number, body: object) => {
      const text = JSON.stringify(body);
      res.writeHead(code, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(text) });
      res.end(req.method === "HEAD" ? undefined : text);
    };
    if (path !== "/health" || (req.method !== "GET" && req.method !== "HEAD")) return send(404, { status: 0, error: `No route ${req.method ?? "GET"} ${path ?? "/"}.` });
    const state = opts.state();
    if (state === "up") return send(200, { status: 1 });
    send(503, { status: 0, error: `${opts.name[0]!.toUpperCase()}${opts.name.slice(1)} is ${state}.` });
  });
  // Probes come one at a time and say so little that keeping their connections open buys nothing.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host.includes(":") ? `[${opts.host}]` : opts.host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
