import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const customEventRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
