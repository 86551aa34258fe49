import { failureOf } from "@fleet/contracts";
import type { FastifyInstance } from "fastify";

/**
 * Errors in the spec's failure shape: the contracts' vocabulary as it says (thrown by the
 * routes), a body fastify could not parse is the client's
 * fault (4xx, `{status: 0, error}`), anything else is logged and answered without a
 * stack trace.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: { statusCode?: number; message?: string; code?: string }, req, reply) => {
    const failure = failureOf(err);
    if (failure) return reply.code(failure.statusCode).send(failure.body);
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, "request failed");
    const message = status === 500 ? "Internal server error." : (err.message ?? "Bad request.");
    return reply.code(status).send({ status: 0, error: message });
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ status: 0, error: `No route ${req.method} ${req.url.split("?")[0]}.` }));
}
