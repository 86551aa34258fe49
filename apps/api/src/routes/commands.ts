import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const commandRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
