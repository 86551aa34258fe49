/**
 * The baseline server, forked by bare.ts: bare node:http answering GET /<name> with a
 * prebuilt body (the parent sends the bodies; `{ bodies }` replaces them), nothing else.
 * A process of its own, like the app, so its CPU is read from /proc the same way and it
 * does not share the client's event loop.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

let bodies = new Map<string, Buffer>();

const server = http.createServer((req, res) => {
  const name = (req.url ?? "/").slice(1).split("?")[0]!;
  const body = bodies.get(name);
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
  res.end(body);
});

process.on("message", (m: { bodies: Record<string, Uint8Array> }) => {
  bodies = new Map(Object.entries(m.bodies).map(([k, v]) => [k, Buffer.from(v.buffer, v.byteOffset, v.byteLength)]));
  process.send?.({ ready: true });
});
process.on("disconnect", () => process.exit(0));

server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port }));
