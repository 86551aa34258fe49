import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const deviceEditRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
