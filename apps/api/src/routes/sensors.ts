import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const sensorRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
