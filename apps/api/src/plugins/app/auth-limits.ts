import { FailureError } from "@fleet/contracts";
import { normalizeEmail } from "@fleet/db";
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import fp from "fastify-plugin";

export interface AuthLimits {
  /** Attempts one client address may make per minute, over all the sign-in routes. */
  perAddressPerMinute: number;
  /** Attempts for one email per 15 minutes, from any address: a password guessed from many machines. */
  perEmailPerQuarterHour: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = { perAddressPerMinute: 30, perEmailPerQuarterHour: 10 };

declare module "fastify" {
  interface FastifyInstance {
    /** The brake on guessing: a preHandler for login, sign-up and password reminder. */
    authLimit: preHandlerAsyncHookHandler;
  }
}

/** The email a sign-in request is about, from its body or query; undefined when it names none. */
function emailOf(req: FastifyRequest): string | undefined {
  for (const part of [req.body, req.query]) {
    const email = part && typeof part === "object" ? (part as Record<string, unknown>).email : undefined;
    if (typeof email === "string" && email.trim() !== "") return normalizeEmail(email);
  }
  return undefined;
}

/**
 * Counts each sign-in attempt against its client address and against the email it names, and
 * answers 429 with the failure body and Retry-After once either is over its limit. Ingest and
 * signed-in routes are not limited.
 */
async function authLimits(app: FastifyInstance, opts: { limits?: AuthLimits }) {
  const limits = opts.limits ?? DEFAULT_AUTH_LIMITS;
  const byAddress = app.createRateLimit({ max: limits.perAddressPerMinute, timeWindow: 60_000, keyGenerator: (req) => `addr:${req.ip}` });
  const byEmail = app.createRateLimit({ max: limits.perEmailPerQuarterHour, timeWindow: 15 * 60_000, keyGenerator: (req) => `email:${emailOf(req)}` });

  app.decorate("authLimit", async function authLimit(req, reply) {
    const checks = [byAddress(req), ...(emailOf(req) === undefined ? [] : [byEmail(req)])];
    for (const check of await Promise.all(checks)) {
      if (check.isAllowed || !check.isExceeded) continue;
      const seconds = Math.max(1, check.ttlInSeconds);
      void reply.header("retry-after", String(seconds));
      throw new FailureError(429, `Too many attempts. Try again in ${seconds} seconds.`);
    }
  } satisfies preHandlerAsyncHookHandler);
}

export default fp(authLimits, { name: "auth-limits", dependencies: ["rate-limit-store"] });
