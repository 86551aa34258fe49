import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const mapIconRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
