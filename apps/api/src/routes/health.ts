import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

/**
 * `GET /api/health`, for a container's health check or a load balancer: 200 `{status: 1}`
 * once the server listens (after its migrations). It asks no store: a database that is down
 * is not fixed by restarting the API, and each request that needs it says so. Without
 * `lang` or `user_api_hash`, and left out of the OpenAPI document, which is the vendor's API.
 */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get("/health", { schema: { hide: true, response: { 200: contracts.HealthResponseSchema } } }, async () => ({ status: 1 as const }));
};
