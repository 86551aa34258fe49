import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { failureOf } from "@fleet/contracts";
import { RefusedError } from "@fleet/db";
import { refusalErrors } from "../../domain/refusals.js";
import { failedReadingMultipart, multipartRefusal, unsupportedTypeMessage } from "../external/body-parsers.js";
import { inputRuleErrors } from "./input-rules.js";

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function fieldOf(issue: AjvIssue): string {
  const base = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (issue.keyword === "required") return [base, String(issue.params.missingProperty)].filter(Boolean).join(".");
  return base || "body";
}

function messageOf(issue: AjvIssue, field: string): string {
  const name = field.replaceAll("_", " ");
  switch (issue.keyword) {
    case "required":
      return `The ${name} field is required.`;
    case "type":
      return `The ${name} must be ${/^[aeiou]/.test(String(issue.params.type)) ? "an" : "a"} ${String(issue.params.type)}.`;
    case "maxLength":
      return `The ${name} may not be greater than ${String(issue.params.limit)} characters.`;
    case "minLength":
      return issue.params.limit === 1 ? `The ${name} field is required.` : `The ${name} must be at least ${String(issue.params.limit)} characters.`;
    case "minimum":
      return `The ${name} must be at least ${String(issue.params.limit)}.`;
    case "maximum":
      return `The ${name} may not be greater than ${String(issue.params.limit)}.`;
    case "pattern":
      return `The ${name} format is invalid.`;
    case "const":
    case "enum":
    case "anyOf":
      return `The selected ${name} is invalid.`;
    default:
      return `The ${name} is invalid.`;
  }
}

/** Validation errors as `{field: message}`, one message per field (the first found). */
export function validationErrors(issues: readonly AjvIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    // A union reports each branch's failure and then anyOf; the anyOf message is the useful one.
    const field = fieldOf(issue);
    if (issue.keyword === "anyOf" || !(field in out)) out[field] = messageOf(issue, field);
  }
  return out;
}

/**
 * The one place failures become the spec's bodies: schema validation and the
 * vocabulary's InvalidInputError → 422 `{status: 0, errors}`, a database refusal → 422 in
 * its default words, NotFoundError → 404, a body type the API does not read → 415 naming
 * the ones it does, FailureError and other client errors → their status with `{status: 0,
 * error}`, anything else → 500 with no internals, logged with the request id. Routes and
 * domain modules throw; none writes a failure body.
 */
export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((err: FastifyError, req, reply) => {
      if (err.validation) return reply.code(422).send({ status: 0, errors: { ...inputRuleErrors(req), ...validationErrors(err.validation as AjvIssue[]) } });
      if (err instanceof RefusedError) return reply.code(422).send({ status: 0, errors: refusalErrors(err) });
      const failure = failureOf(err);
      if (failure) {
        if (failure.statusCode >= 500) req.log.warn({ err }, "request failed on a service it needs");
        return reply.code(failure.statusCode).send(failure.body);
      }
      if (err.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return reply.code(415).send({ status: 0, error: unsupportedTypeMessage(req.headers["content-type"]) });
      const refusal = multipartRefusal(err.code);
      if (refusal !== undefined) return reply.code(err.statusCode ?? 400).send({ status: 0, error: refusal });
      if (err.statusCode === undefined && failedReadingMultipart(req)) return reply.code(400).send({ status: 0, error: `Malformed multipart body: ${err.message}` });
      const code = err.statusCode ?? 500;
      if (code >= 400 && code < 500) return reply.code(code).send({ status: 0, error: err.message });
      req.log.error({ err }, "request failed");
      return reply.code(500).send({ status: 0, error: "Internal server error." });
    });
    app.setNotFoundHandler((req, reply) => reply.code(404).send({ status: 0, error: `No route ${req.method} ${req.url.split("?")[0]}.` }));
  },
  { name: "errors" },
);
