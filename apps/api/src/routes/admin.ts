import {
  AdminClientBodySchema,
  AdminClientResponseSchema,
  AdminClientsResponseSchema,
  DeadLettersQuerySchema,
  DeadLettersRepublishBodySchema,
  DeadLettersRepublishResponseSchema,
  DeadLettersResponseSchema,
  FailureResponses,
  Topics,
  UnregisteredDevicesResponseSchema,
  formatDateTime,
  isTruthy,
} from "@fleet/contracts";
import { DuplicateEmailError, UserGroup, createUser, listUnregistered, listUsers, type User } from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { currentUser } from "../plugins/app/auth.js";

const Forbidden = Type.Object({ status: Type.Literal(0), error: Type.String() });

function client(u: User, tz: number) {
  return {
    id: u.id,
    email: u.email,
    active: u.active ? 1 : 0,
    group_id: u.groupId,
    devices_limit: u.devicesLimit,
    subscription_expiration: u.expirationDate ? formatDateTime(u.expirationDate.getTime(), tz) : "0000-00-00 00:00:00",
    loged_at: u.logedAt ? formatDateTime(u.logedAt.getTime(), tz) : null,
    created_at: formatDateTime(u.createdAt.getTime(), tz),
    updated_at: formatDateTime(u.updatedAt.getTime(), tz),
  };
}

/**
 * `expiration_date` as an instant: ISO date-times as given (the schema's date-time format
 * has checked them), `YYYY-MM-DD[ HH:MM[:SS]]` as UTC. Undefined for a string shaped like
 * a date that names no real moment (`2099-13-45`, `2099-02-30`, which Date would roll over).
 */
function parseExpiration(s: string): Date | undefined {
  if (s.includes("T")) return new Date(s);
  const d = new Date(`${s.replace(" ", "T")}Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s.slice(0, 10)) return undefined;
  return d;
}

/** Administrator-only routes; anyone else gets 403. */
export const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, deadLetters } = app.services;
  // preValidation (after authenticate, before the body schema): a non-administrator gets
  // 403 whatever the body, rather than 422s that describe what the route accepts.
  app.addHook("preValidation", async (req, reply) => {
    if (currentUser(req).groupId !== UserGroup.administrator) return reply.code(403).send({ status: 0, error: "This action is for administrators only." });
  });

  app.post(
    "/admin/client",
    { schema: { tags: ["Admin User"], summary: "Create a user", body: AdminClientBodySchema, response: { 200: AdminClientResponseSchema, 403: Forbidden, ...FailureResponses } } },
    async (req, reply) => {
      const b = req.body;
      if (b.password !== b.password_confirmation) return reply.code(422).send({ status: 0, errors: { password: "The password confirmation does not match." } });
      const expirationDate = b.expiration_date ? parseExpiration(b.expiration_date) : null;
      if (expirationDate === undefined) return reply.code(422).send({ status: 0, errors: { expiration_date: "The expiration date is not a valid date." } });
      try {
        const user = await createUser(db, {
          email: b.email,
          password: b.password,
          groupId: b.group_id ?? UserGroup.user,
          active: isTruthy(b.active) ?? true,
          devicesLimit: b.devices_limit ?? null,
          expirationDate,
        });
        return { status: 1 as const, item: client(user, currentUser(req).timezoneId) };
      } catch (err) {
        if (err instanceof DuplicateEmailError) return reply.code(422).send({ status: 0, errors: { email: "The email has already been taken." } });
        throw err;
      }
    },
  );

  app.get("/admin/clients", { schema: { tags: ["Admin User"], summary: "List users", response: { 200: AdminClientsResponseSchema, 403: Forbidden, ...FailureResponses } } }, async (req) => {
    const users = await listUsers(db);
    const tz = currentUser(req).timezoneId;
    return {
      current_page: 1,
      data: users.map((u) => client(u, tz)),
      from: users.length > 0 ? 1 : null,
      last_page: 1,
      next_page_url: null,
      prev_page_url: null,
      path: "/api/admin/clients",
      per_page: Math.max(users.length, 1),
      to: users.length > 0 ? users.length : null,
      total: users.length,
    };
  });

  app.get(
    "/admin/unregistered_devices",
    { schema: { tags: ["Admin User"], summary: "uniqueIds that sent positions but match no device", response: { 200: UnregisteredDevicesResponseSchema, 403: Forbidden, ...FailureResponses } } },
    async (req) => {
      const tz = currentUser(req).timezoneId;
      const rows = await listUnregistered(db);
      return {
        status: 1 as const,
        items: rows.map((r) => ({ unique_id: r.uniqueId, protocol: r.protocol, count: Number(r.count), first_seen: formatDateTime(r.firstSeen.getTime(), tz), last_seen: formatDateTime(r.lastSeen.getTime(), tz) })),
      };
    },
  );

  app.get(
    "/admin/dead_letters",
    { schema: { tags: ["Admin User"], summary: "Messages a consumer could never process (positions.dead, events.dead)", querystring: DeadLettersQuerySchema, response: { 200: DeadLettersResponseSchema, 403: Forbidden, ...FailureResponses } } },
    async (req) => {
      const tz = currentUser(req).timezoneId;
      const letters = await deadLetters.list(req.query.topic ?? Topics.positionsDead);
      return {
        status: 1 as const,
        items: letters.map((l) => ({
          id: l.id,
          topic: l.topic,
          partition: l.partition,
          offset: l.offset,
          group_id: l.groupId,
          key: l.key,
          error: l.error,
          value: Buffer.from(l.value, "base64").toString("utf8"),
          value_base64: l.value,
          dead_at: formatDateTime(l.deadAt, tz),
          republished_at: l.republishedAt === null ? null : formatDateTime(l.republishedAt, tz),
        })),
      };
    },
  );

  app.post(
    "/admin/dead_letters/republish",
    { schema: { tags: ["Admin User"], summary: "Send dead letters back to their topic after a fix", body: DeadLettersRepublishBodySchema, response: { 200: DeadLettersRepublishResponseSchema, 403: Forbidden, ...FailureResponses } } },
    async (req) => ({ status: 1 as const, republished: await deadLetters.republish(req.body.topic ?? Topics.positionsDead, req.body.ids) }),
  );
};
