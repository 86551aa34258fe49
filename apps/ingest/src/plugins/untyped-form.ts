import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";

/**
 * A POST body without a Content-Type is read as a form, as Traccar reads one (its OsmAnd
 * decoder takes any body that is not JSON as a query string): small device HTTP stacks
 * often send none, and were answered 415.
 */
export function untypedBodyIsForm(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const { headers } = req;
  const hasBody = (headers["content-length"] !== undefined && headers["content-length"] !== "0") || headers["transfer-encoding"] !== undefined;
  if (headers["content-type"] === undefined && hasBody) headers["content-type"] = "application/x-www-form-urlencoded";
  done();
}
