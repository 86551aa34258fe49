import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const geofenceRoutes: FastifyPluginAsyncTypebox = async (_app) => {};
