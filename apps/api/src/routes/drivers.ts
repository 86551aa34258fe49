import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const driverRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
