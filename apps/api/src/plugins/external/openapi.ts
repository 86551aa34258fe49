import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * The OpenAPI document generated from the routes' TypeBox schemas, at /api/docs/json,
 * with Swagger UI at /api/docs. Registered before the routes so it sees all of them.
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
    await app.register(swaggerUi, { routePrefix: "/docs" });
  },
  { name: "openapi" },
);
