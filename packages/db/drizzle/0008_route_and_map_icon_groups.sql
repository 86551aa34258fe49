CREATE TABLE "map_icon_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "route_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "routes" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "user_map_icons" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "map_icon_groups" ADD CONSTRAINT "map_icon_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_groups" ADD CONSTRAINT "route_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "map_icon_groups_user_id_idx" ON "map_icon_groups" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "route_groups_user_id_idx" ON "route_groups" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "routes" ADD CONSTRAINT "routes_group_id_route_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."route_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_map_icons" ADD CONSTRAINT "user_map_icons_group_id_map_icon_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."map_icon_groups"("id") ON DELETE set null ON UPDATE no action;