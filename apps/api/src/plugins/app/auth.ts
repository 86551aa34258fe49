import { FailureError, SupportedLangs } from "@fleet/contracts";
import { isUserUsable, type User } from "@fleet/db";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyRequest {
    user: User | null;
  }
  interface FastifyInstance {
    /** preValidation hook for routes that need a signed-in user. */
    authenticate(req: FastifyRequest): Promise<void>;
  }
}

const langs = new Set<string>(SupportedLangs);
export const UNAUTHENTICATED = "Unauthenticated.";

function param(req: FastifyRequest, name: string): string | undefined {
  const fromQuery = (req.query as Record<string, unknown> | undefined)?.[name];
  if (typeof fromQuery === "string" && fromQuery !== "") return fromQuery;
  const body = req.body;
  if (body && typeof body === "object" && !Array.isArray(body)) {
    const fromBody = (body as Record<string, unknown>)[name];
    if (typeof fromBody === "string" && fromBody !== "") return fromBody;
  }
  return undefined;
}

/** The user behind a request that passed `authenticate`. */
export function currentUser(req: FastifyRequest): User {
  if (!req.user) throw new Error("route is missing the authenticate hook");
  return req.user;
}

/**
 * `user_api_hash` from the query, the body or the `user-api-hash` header, and `lang`
 * from the query or the body, as existing clients of this API send them.
 */
export default fp(
  async function auth(app: FastifyInstance) {
    app.decorateRequest("user", null);
    app.decorate("authenticate", async (req: FastifyRequest) => {
      const lang = param(req, "lang");
      if (!lang || !langs.has(lang)) throw new FailureError(400, "No language selected.");
      const header = req.headers["user-api-hash"];
      const hash = (typeof header === "string" && header !== "" ? header : undefined) ?? param(req, "user_api_hash");
      if (!hash || hash.length > 200) throw new FailureError(401, UNAUTHENTICATED);
      const user = await app.services.users.byApiHash(hash);
      if (!user || !isUserUsable(user)) throw new FailureError(401, UNAUTHENTICATED);
      req.user = user;
    });
  },
  { name: "auth", dependencies: ["services"] },
);
