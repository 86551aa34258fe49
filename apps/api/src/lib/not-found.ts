import type { FastifyReply } from "fastify";

/**
 * The one answer for an id that does not exist, is deleted, or belongs to another user:
 * 404 `{status: 0, error}`. Routes never say which, so ids cannot be probed.
 */
export function notFound(reply: FastifyReply, what: string) {
  return reply.code(404).send({ status: 0 as const, error: `${what} not found.` });
}
