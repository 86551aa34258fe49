import { FailureError } from "@fleet/contracts";
import { normalizeEmail } from "@fleet/db";
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerAsyncHookHandler } from "fastify";
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
    /** The brake on guessing: a preHandler for sign-up, password reminder and the reset form. */
    authLimit: preHandlerAsyncHookHandler;
    /** Login's brake, on failed attempts only: refuses a locked address or email, and counts each 401 before it is sent. */
    loginLimit: { preHandler: preHandlerAsyncHookHandler; onSend: onSendHookHandler };
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

function refuse(reply: FastifyReply, seconds: number): never {
  const wait = Math.max(1, Math.ceil(seconds));
  void reply.header("retry-after", String(wait));
  throw new FailureError(429, `Too many attempts. Try again in ${wait} seconds.`);
}

/**
 * Sign-up, the password reminder and the reset form count each attempt against its client
 * address and against the email it names, and answer 429 with the failure body and Retry-After
 * once either is over its limit. Login counts only its failures (401), so that a client that
 * signs in often with the right password, or many people sharing one account, are never held
 * up: once an address or an email has used up its failures, this instance refuses it until the
 * window ends. The counts are shared (Redis); another instance learns of a lock at the next
 * failure it counts itself. Ingest and signed-in routes are not limited.
 */
async function authLimits(app: FastifyInstance, opts: { limits?: AuthLimits }) {
  const limits = opts.limits ?? DEFAULT_AUTH_LIMITS;
  /** Counts against the address and the email named, under keys of `kind`'s own. */
  const counter = (kind: string) => {
    const byAddress = app.createRateLimit({ max: limits.perAddressPerMinute, timeWindow: 60_000, keyGenerator: (req) => `${kind}addr:${req.ip}` });
    const byEmail = app.createRateLimit({ max: limits.perEmailPerQuarterHour, timeWindow: 15 * 60_000, keyGenerator: (req) => `${kind}email:${emailOf(req)}` });
    return (req: FastifyRequest) => Promise.all([byAddress(req), ...(emailOf(req) === undefined ? [] : [byEmail(req)])]);
  };
  const attempts = counter("");
  // Login's failures apart from the other routes' attempts, which anyone may make about any
  // email: those must not use up a user's login failures.
  const failures = counter("login-");

  app.decorate("authLimit", async function authLimit(req, reply) {
    for (const check of await attempts(req)) if (!check.isAllowed && check.isExceeded) refuse(reply, check.ttlInSeconds);
  } satisfies preHandlerAsyncHookHandler);

  /** Addresses and emails out of login failures, until when (ms). */
  const locked = new Map<string, number>();
  const loginKeys = (req: FastifyRequest) => [`addr:${req.ip}`, ...(emailOf(req) === undefined ? [] : [`email:${emailOf(req)}`])];
  app.decorate("loginLimit", {
    async preHandler(req, reply) {
      const now = Date.now();
      for (const key of loginKeys(req)) {
        const until = locked.get(key);
        if (until === undefined) continue;
        if (until > now) refuse(reply, (until - now) / 1000);
        locked.delete(key);
      }
    },
    // Counted before the answer leaves, so the client's next attempt finds the lock in place.
    async onSend(req, reply, payload) {
      if (reply.statusCode !== 401) return payload;
      const now = Date.now();
      if (locked.size > 10_000) for (const [key, until] of locked) if (until <= now) locked.delete(key);
      const keys = loginKeys(req);
      (await failures(req)).forEach((check, i) => {
        // The failure that uses up the last one locks: the next attempt is refused.
        if (!check.isAllowed && (check.remaining === 0 || check.isExceeded)) locked.set(keys[i]!, now + check.ttlInSeconds * 1000);
      });
      return payload;
    },
  } satisfies FastifyInstance["loginLimit"]);
}

export default fp(authLimits, { name: "auth-limits", dependencies: ["rate-limit-store"] });
