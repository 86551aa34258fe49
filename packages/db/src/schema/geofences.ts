import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { users } from "./users.js";

export interface LatLng {
  lat: number;
  lng: number;
}

/** A user's grouping of geofences (the vendor's geofence groups). */
export const geofenceGroups = pgTable(
  "geofence_groups",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("geofence_groups_user_id_idx").on(t.userId)],
);

export const geofenceTypes = ["polygon", "circle"] as const;

/**
 * A polygon (closed ring in `coordinates`) or a circle (`center` and `radius` in metres).
 * The rules service tests positions against these.
 */
export const geofences = pgTable(
  "geofences",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    groupId: integer("group_id").references(() => geofenceGroups.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    type: text("type", { enum: geofenceTypes }).notNull(),
    polygonColor: text("polygon_color").notNull(),
    coordinates: jsonb("coordinates").$type<LatLng[]>().notNull().default([]),
    center: jsonb("center").$type<LatLng>(),
    radius: doublePrecision("radius"),
    /** km/h: inside, the owner's overspeed alerts take this limit instead of their own (Traccar's geofence speedLimit); null for none. */
    speedLimit: doublePrecision("speed_limit"),
    active: boolean("active").notNull().default(true),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("geofences_user_id_idx").on(t.userId), check("geofences_type_valid", sql`${t.type} in ('polygon', 'circle')`)],
);

export type Geofence = typeof geofences.$inferSelect;
export type GeofenceGroup = typeof geofenceGroups.$inferSelect;

/** A user's grouping of routes (the vendor's routes_groups). */
export const routeGroups = pgTable(
  "route_groups",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("route_groups_user_id_idx").on(t.userId)],
);

export type RouteGroup = typeof routeGroups.$inferSelect;

/** A user's route: a polyline drawn on the map. */
export const routes = pgTable(
  "routes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    groupId: integer("group_id").references(() => routeGroups.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    color: text("color").notNull(),
    polyline: jsonb("polyline").$type<LatLng[]>().notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("routes_user_id_idx").on(t.userId)],
);

export type Route = typeof routes.$inferSelect;

/** A user's grouping of map icons (the vendor's pois_groups: its POIs are our user map icons). */
export const mapIconGroups = pgTable(
  "map_icon_groups",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("map_icon_groups_user_id_idx").on(t.userId)],
);

export type MapIconGroup = typeof mapIconGroups.$inferSelect;

/** A user's point of interest on the map, drawn with an icon of the shipped catalogue. */
export const userMapIcons = pgTable(
  "user_map_icons",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    groupId: integer("group_id").references(() => mapIconGroups.id, { onDelete: "set null" }),
    mapIconId: integer("map_icon_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    coordinates: jsonb("coordinates").$type<LatLng>().notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("user_map_icons_user_id_idx").on(t.userId)],
);

export type UserMapIcon = typeof userMapIcons.$inferSelect;
