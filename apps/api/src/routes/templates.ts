import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const templateRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
