import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

const DOCS = "/docs";

/**
 * Sends the Swagger UI page asked for without its trailing slash (/api/docs) to the one with
 * it (/api/docs/). @fastify/swagger-ui links that page's assets as `<routePrefix>/static/…`,
 * which leaves out the prefix the plugin is mounted under (/api), so they 404; the page at
 * docs/ links them relatively (./static/…), which holds under any prefix. The Location is
 * relative for the same reason: it stays right behind a proxy that adds a path prefix.
 */
async function toTrailingSlash(req: FastifyRequest, reply: FastifyReply) {
  const q = req.url.indexOf("?");
  const path = q === -1 ? req.url : req.url.slice(0, q);
  if (path.endsWith(DOCS)) return reply.redirect(`${DOCS.slice(1)}/${q === -1 ? "" : req.url.slice(q)}`);
}

/**
 * The OpenAPI document generated from the routes' TypeBox schemas, at /api/docs/json,
 * with Swagger UI at /api/docs/ (/api/docs redirects there). Registered before the routes
 * so it sees all of them.
 */
export default fp(
  async function openapi(app: FastifyInstance, opts: { version: string }) {
    await app.register(swagger, {
      openapi: {
        openapi: "3.0.3",
        info: { title: "Fleet tracking API", version: opts.version, description: "GPS fleet tracking: account, devices, live state, history and records. Every endpoint but login takes `lang` and `user_api_hash`." },
        components: {
          securitySchemes: {
            user_api_hash: { type: "apiKey", in: "query", name: "user_api_hash" },
            user_api_hash_header: { type: "apiKey", in: "header", name: "user-api-hash" },
          },
        },
        security: [{ user_api_hash: [] }, { user_api_hash_header: [] }],
      },
    });
    await app.register(swaggerUi, { routePrefix: DOCS, uiHooks: { onRequest: toTrailingSlash } });
  },
  { name: "openapi" },
);
