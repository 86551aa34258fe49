import { Type, type Static } from "@sinclair/typebox";
import { FormBoolean, StatusOk } from "./common.js";
import { LaravelPaginated, PageQuery } from "./pagination.js";

/** A date an administrator sets: ISO 8601, or `YYYY-MM-DD[ HH:MM[:SS]]` (UTC). */
export const AdminDateSchemas = [Type.String({ format: "date-time" }), Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}(:\\d{2})?)?$" })] as const;

/** `POST /admin/client`, the vendor's create-client body (the fields this platform keeps). */
export const AdminClientBodySchema = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 255, pattern: "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$" }),
  password: Type.String({ minLength: 6, maxLength: 255 }),
  password_confirmation: Type.String({ maxLength: 255 }),
  group_id: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], { description: "1 administrator, 2 user" })),
  active: Type.Optional(FormBoolean()),
  devices_limit: Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 0, maximum: 1_000_000, description: "0, null or omitted for no limit" })])),
  expiration_date: Type.Optional(Type.Union([Type.Null(), ...AdminDateSchemas])),
  enable_devices_limit: Type.Optional(FormBoolean({ description: "off: no devices limit, whatever devices_limit says" })),
  enable_expiration_date: Type.Optional(FormBoolean({ description: "off: never expires, whatever expiration_date says" })),
  objects: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 10_000, description: "device ids the new client has" })),
});
export type AdminClientBody = Static<typeof AdminClientBodySchema>;

export const AdminClientSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  active: Type.Integer(),
  group_id: Type.Integer(),
  devices_limit: Type.Union([Type.Null(), Type.Integer()]),
  subscription_expiration: Type.String(),
  loged_at: Type.Union([Type.Null(), Type.String()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type AdminClient = Static<typeof AdminClientSchema>;

export const AdminClientResponseSchema = Type.Object({ status: StatusOk, item: AdminClientSchema });

export const adminClientSortColumns = ["id", "email", "active", "group_id", "devices_limit", "subscription_expiration", "loged_at", "created_at", "updated_at"] as const;
export type AdminClientSortColumn = (typeof adminClientSortColumns)[number];

/**
 * `GET /admin/clients`: every user on one page unless `limit` (or `per_page`) asks for pages;
 * `search_phrase` found in the email, `search_device` a device's IMEI the user has, `filter[...]`
 * exact values (unknown keys refused), sorted by `sort_by` and `sort`.
 */
export const AdminClientsQuerySchema = Type.Object({
  ...PageQuery,
  search_phrase: Type.Optional(Type.String({ maxLength: 255 })),
  search_device: Type.Optional(Type.String({ maxLength: 64, description: "the IMEI of a device the client has" })),
  filter: Type.Optional(
    Type.Object(
      {
        id: Type.Optional(Type.Integer({ minimum: 1 })),
        email: Type.Optional(Type.String({ maxLength: 255 })),
        active: Type.Optional(FormBoolean()),
        group_id: Type.Optional(Type.Integer({ minimum: 1 })),
      },
      { additionalProperties: false, description: "exact matches: filter[id], filter[email] (any case), filter[active], filter[group_id]" },
    ),
  ),
  sort_by: Type.Optional(Type.Union(adminClientSortColumns.map((c) => Type.Literal(c)))),
  sort: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
});
export type AdminClientsQuery = Static<typeof AdminClientsQuerySchema>;

export const AdminClientsResponseSchema = LaravelPaginated(AdminClientSchema);

export const UnregisteredDevicesResponseSchema = Type.Object({
  status: StatusOk,
  items: Type.Array(Type.Object({ unique_id: Type.String(), protocol: Type.String(), count: Type.Integer(), first_seen: Type.String(), last_seen: Type.String() })),
});

/** The dead-letter topics an administrator can list and republish. */
export const DeadTopicSchema = Type.Union([Type.Literal("positions.dead"), Type.Literal("events.dead")], { default: "positions.dead" });

export const DeadLettersQuerySchema = Type.Object({ topic: Type.Optional(DeadTopicSchema) });

export const DeadLettersResponseSchema = Type.Object({
  status: StatusOk,
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      topic: Type.String({ description: "where the message came from" }),
      partition: Type.Integer(),
      offset: Type.String(),
      group_id: Type.String(),
      key: Type.String(),
      error: Type.Object({ name: Type.String(), message: Type.String(), code: Type.Optional(Type.String()) }),
      value: Type.String({ description: "the message as text (invalid UTF-8 shown as U+FFFD); value_base64 holds its exact bytes" }),
      value_base64: Type.String(),
      dead_at: Type.String(),
      republished_at: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

export const DeadLettersRepublishBodySchema = Type.Object({
  topic: Type.Optional(DeadTopicSchema),
  /** Only these letters; without it, every letter not republished yet. */
  ids: Type.Optional(Type.Array(Type.String({ pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$", description: "a letter's id (a UUID)" }), { maxItems: 10_000 })),
});

export const DeadLettersRepublishResponseSchema = Type.Object({ status: StatusOk, republished: Type.Integer() });
