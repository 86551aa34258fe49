import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * One line per answered request (method, URL with secrets redacted by the logger's request
 * serializer, status, time, request id) in place of fastify's two, so a terminal stays readable.
 * Debug level for the live list's polls, which every open browser sends every few seconds.
 */
async function requestLog(app: FastifyInstance) {
  app.addHook("onResponse", async (req, reply) => {
    const level = reply.statusCode >= 500 ? "error" : req.routeOptions.url?.endsWith("get_devices_latest") ? "debug" : "info";
    req.log[level]({ req, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, "request");
  });
}

export default fp(requestLog, { name: "request-log" });
