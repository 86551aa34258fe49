import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const taskRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
