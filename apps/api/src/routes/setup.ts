import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const setupRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
