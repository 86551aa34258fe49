import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";

/** The vendor's group ids (`group_id` in the account record); only these two are used so far. */
export const UserGroup = { administrator: 1, user: 2 } as const;
export type UserGroupId = (typeof UserGroup)[keyof typeof UserGroup];

/** How the account's own SMS gateway is called (`edit_setup`); secrets stay server-side. */
export interface SmsGatewayParams {
  request_method: "get" | "post" | "app";
  authentication: 0 | 1;
  encoding: "0" | "json";
  username: string;
  password: string;
  auth_id: string;
  auth_token: string;
  senders_phone: string;
}
export const defaultSmsGatewayParams: SmsGatewayParams = {
  request_method: "get",
  authentication: 0,
  encoding: "0",
  username: "",
  password: "",
  auth_id: "",
  auth_token: "",
  senders_phone: "",
};

/** Daylight saving rule of the account (`edit_setup` dst_* fields); null = none. */
export interface DstSettings {
  type: "exact" | "other" | "automatic";
  date_from?: string;
  date_to?: string;
  month_from?: number;
  month_to?: number;
  week_pos_from?: number;
  week_pos_to?: number;
  week_day_from?: number;
  week_day_to?: number;
  time_from?: string;
  time_to?: string;
  dst_country_id?: number;
}

export const unitsOfDistance = ["km", "mi"] as const;
export const unitsOfCapacity = ["lt", "gl"] as const;
export const unitsOfAltitude = ["mt", "ft"] as const;

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    // Stored lower-cased (the check below refuses anything else), so the plain unique
    // constraint is a case-insensitive one and lookups can use the index directly.
    email: text("email").notNull().unique("users_email_unique"),
    // `scrypt$N$r$p$<salt base64>$<hash base64>`, see src/password.ts.
    passwordHash: text("password_hash").notNull(),
    // The `user_api_hash` clients send: 32 random bytes as hex. The unique constraint is its index.
    apiHash: text("api_hash").notNull().unique("users_api_hash_unique"),
    active: boolean("active").notNull().default(true),
    groupId: integer("group_id").$type<UserGroupId>().notNull().default(UserGroup.user),
    // null = no limit, as in the vendor's account record.
    devicesLimit: integer("devices_limit"),
    // null = never expires.
    expirationDate: ts("expiration_date"),
    lang: text("lang").notNull().default("en"),
    // 0 = the default timezone (UTC), as in the vendor's timezone list where id 0 means default.
    timezoneId: integer("timezone_id").notNull().default(0),
    unitOfDistance: text("unit_of_distance", { enum: unitsOfDistance }).notNull().default("km"),
    unitOfCapacity: text("unit_of_capacity", { enum: unitsOfCapacity }).notNull().default("lt"),
    unitOfAltitude: text("unit_of_altitude", { enum: unitsOfAltitude }).notNull().default("mt"),
    mapId: integer("map_id").notNull().default(1),
    smsGateway: boolean("sms_gateway").notNull().default(false),
    smsGatewayUrl: text("sms_gateway_url").notNull().default(""),
    smsGatewayParams: jsonb("sms_gateway_params").$type<SmsGatewayParams>().notNull().default(defaultSmsGatewayParams),
    dst: jsonb("dst").$type<DstSettings>(),
    // 1 = Monday … 7 = Sunday.
    weekStartDay: integer("week_start_day").notNull().default(1),
    createdAt: ts("created_at").notNull().defaultNow(),
    // Bumped by a trigger (migration 0001) on every UPDATE, whichever code issues it.
    updatedAt: ts("updated_at").notNull().defaultNow(),
    // Spelled as the vendor spells it, so the API can pass it through unchanged.
    logedAt: ts("loged_at"),
  },
  (t) => [
    check("users_email_lower_case", sql`${t.email} = lower(${t.email})`),
    // The enum option on a text column types it in TypeScript only; these hold it in the database.
    check("users_unit_of_distance_valid", sql`${t.unitOfDistance} in ('km', 'mi')`),
    check("users_unit_of_capacity_valid", sql`${t.unitOfCapacity} in ('lt', 'gl')`),
    check("users_unit_of_altitude_valid", sql`${t.unitOfAltitude} in ('mt', 'ft')`),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
