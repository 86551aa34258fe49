import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const alertRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
