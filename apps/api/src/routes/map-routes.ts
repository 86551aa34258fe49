import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const mapRouteRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
