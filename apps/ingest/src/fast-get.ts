import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyServerFactory } from "fastify";
import { insertOne } from "./insert-one.js";
import type { Publisher } from "./publisher.js";
import { parseQuery } from "./query.js";

/** Answers the request if it is the hot GET; false hands it to fastify. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const PATH = "/insert.php";
const QUESTION_MARK = 63;
const JSON_TYPE = "application/json; charset=utf-8";
const INTERNAL_ERROR_BODY = JSON.stringify({ status: 0, error: "Internal server error." });

function send(res: ServerResponse, statusCode: number, body: string): void {
  res.writeHead(statusCode, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/**
 * `GET /insert.php` answered on node:http, before fastify: every device sends one per fix,
 * and fastify's per-request machinery (request and reply objects, a child logger and its
 * validation, response listeners, hooks) cost ~5 µs of the ~34 µs of CPU the request took
 * under the benchmark's load, where the same parsing behind node:http cost what the bare
 * server does. Same query parser as the ingest server's router, same `insertOne`, same bytes out;
 * log lines carry the request id fastify would have given (`x-request-id`, else a UUID).
 * Every other request, and this one while the server is closing, goes to fastify.
 */
export function insertGetFastPath(publisher: Publisher, logger: FastifyBaseLogger): FastPath {
  const requestLog = (req: IncomingMessage) => {
    const header = req.headers["x-request-id"];
    return logger.child({ reqId: typeof header === "string" && header !== "" ? header : randomUUID() });
  };
  return (req, res) => {
    const url = req.url;
    if (req.method !== "GET" || url === undefined || !url.startsWith(PATH)) return false;
    if (url.length > PATH.length && url.charCodeAt(PATH.length) !== QUESTION_MARK) return false;
    insertOne(publisher, parseQuery(url.length > PATH.length + 1 ? url.slice(PATH.length + 1) : "")).then(
      (answer) => {
        if (answer.busError) requestLog(req).warn({ err: answer.busError.cause }, "bus did not take positions");
        send(res, answer.statusCode, answer.body);
      },
      (err: unknown) => {
        requestLog(req).error({ err }, "request failed");
        send(res, 500, INTERNAL_ERROR_BODY);
      },
    );
    return true;
  };
}

interface ServerTimeouts {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * fastify's `serverFactory`: the node:http server fastify would make (its timeouts), with
 * `fastPath` in front of fastify's handler while the server listens. Once closing starts,
 * fastify answers everything, as it does without a fast path (503 and `connection: close`).
 */
export function serverFactoryWith(fastPath: FastPath): FastifyServerFactory {
  return (handler, options) => {
    // Device firmware's small HTTP stacks often send HTTP/1.1 without a Host header, which node
    // answers 400 by default; Traccar takes such requests, and so does ingest.
    const server = http.createServer({ requireHostHeader: false }, (req, res) => {
      if (!server.listening || !fastPath(req, res)) handler(req, res);
    });
    // What fastify sets on a server it makes itself (its defaults are filled in by now).
    const o = options as ServerTimeouts;
    if (o.keepAliveTimeout !== undefined) server.keepAliveTimeout = o.keepAliveTimeout;
    if (o.requestTimeout !== undefined) server.requestTimeout = o.requestTimeout;
    server.setTimeout(o.connectionTimeout ?? 0);
    if (o.maxRequestsPerSocket) server.maxRequestsPerSocket = o.maxRequestsPerSocket;
    return server;
  };
}
