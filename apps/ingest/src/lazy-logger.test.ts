import Fastify from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import { capturingLogger } from "../test/fixtures/recording.js";
import { installErrorHandling } from "./plugins/errors.js";
import type { Publisher } from "./publisher.js";
import { ingestServerOptions } from "./server-options.js";

/** These apps have no insert routes: nothing publishes. */
const noPublisher: Publisher = { publish: () => Promise.reject(new Error("not used")), close: async () => undefined };

async function appWith(logger: ReturnType<typeof capturingLogger>["logger"]) {
  const app = Fastify(ingestServerOptions(logger, noPublisher));
  app.get("/quiet", async () => ({ ok: true }));
  app.get("/loud", async (req) => {
    req.log.info({ step: 1 }, "hello");
    req.log.child({ part: "inner" }).warn("from a child");
    return { level: req.log.level };
  });
  await app.ready();
  return app;
}

describe("request loggers of the ingest server", () => {
  afterEach(() => void vi.restoreAllMocks());

  it("carry the request id on every line, also from their own children", async () => {
    const { logger, lines } = capturingLogger();
    const app = await appWith(logger);
    const res = await app.inject({ url: "/loud", headers: { "x-request-id": "req-42" } });
    expect(res.json()).toEqual({ level: "info" });
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([
      expect.objectContaining({ reqId: "req-42", step: 1, msg: "hello", level: 30 }),
      expect.objectContaining({ reqId: "req-42", part: "inner", msg: "from a child", level: 40 }),
    ]);
    await app.close();
  });

  it("are made only for requests that log", async () => {
    const { logger } = capturingLogger();
    const app = await appWith(logger);
    // On pino's prototype: fastify hands the factory its own child of `logger`.
    const child = vi.spyOn(Object.getPrototypeOf(logger) as { child: typeof logger.child }, "child");
    for (let i = 0; i < 5; i++) expect((await app.inject({ url: "/quiet" })).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    await app.inject({ url: "/loud" });
    // The request's own logger, then the child the route makes of it.
    expect(child).toHaveBeenCalledTimes(2);
    await app.close();
  });

  it("log a failing request's error with its request id", async () => {
    const { logger, lines } = capturingLogger();
    const app = Fastify(ingestServerOptions(logger, noPublisher));
    // As the ingest app installs it: inside its plugin, with the routes.
    await app.register(async (scope) => {
      installErrorHandling(scope);
      scope.get("/boom", async () => {
        throw new Error("kaput");
      });
    });
    const res = await app.inject({ url: "/boom", headers: { "x-request-id": "req-7" } });
    expect(res.statusCode).toBe(500);
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([expect.objectContaining({ reqId: "req-7", level: 50, msg: "request failed", err: expect.objectContaining({ message: "kaput" }) })]);
    await app.close();
  });
});
