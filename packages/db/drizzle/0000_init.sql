CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"api_hash" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"group_id" integer DEFAULT 2 NOT NULL,
	"devices_limit" integer,
	"expiration_date" timestamp with time zone,
	"lang" text DEFAULT 'en' NOT NULL,
	"timezone_id" integer DEFAULT 0 NOT NULL,
	"unit_of_distance" text DEFAULT 'km' NOT NULL,
	"unit_of_capacity" text DEFAULT 'lt' NOT NULL,
	"unit_of_altitude" text DEFAULT 'mt' NOT NULL,
	"map_id" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"loged_at" timestamp with time zone,
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_api_hash_unique" UNIQUE("api_hash"),
	CONSTRAINT "users_email_lower_case" CHECK ("users"."email" = lower("users"."email")),
	CONSTRAINT "users_unit_of_distance_valid" CHECK ("users"."unit_of_distance" in ('km', 'mi')),
	CONSTRAINT "users_unit_of_capacity_valid" CHECK ("users"."unit_of_capacity" in ('lt', 'gl')),
	CONSTRAINT "users_unit_of_altitude_valid" CHECK ("users"."unit_of_altitude" in ('mt', 'ft'))
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"name" text NOT NULL,
	"imei" text NOT NULL,
	"icon_id" integer DEFAULT 0 NOT NULL,
	"fuel_measurement_id" integer DEFAULT 1 NOT NULL,
	"tail_length" integer DEFAULT 5 NOT NULL,
	"tail_color" text DEFAULT '#33cc33' NOT NULL,
	"min_moving_speed" double precision DEFAULT 6 NOT NULL,
	"min_fuel_fillings" double precision DEFAULT 10 NOT NULL,
	"min_fuel_thefts" double precision DEFAULT 10 NOT NULL,
	"fuel_quantity" numeric(12, 2) DEFAULT 0 NOT NULL,
	"fuel_price" numeric(12, 2) DEFAULT 0 NOT NULL,
	"fuel_per_km" numeric(12, 4) DEFAULT 0 NOT NULL,
	"device_icons_type" text DEFAULT 'icon' NOT NULL,
	"icon_colors" jsonb DEFAULT '{"moving":"green","stopped":"red","offline":"red","engine":"yellow"}'::jsonb NOT NULL,
	"sim_number" text DEFAULT '' NOT NULL,
	"vin" text DEFAULT '' NOT NULL,
	"device_model" text DEFAULT '' NOT NULL,
	"plate_number" text DEFAULT '' NOT NULL,
	"registration_number" text DEFAULT '' NOT NULL,
	"object_owner" text DEFAULT '' NOT NULL,
	"additional_notes" text DEFAULT '' NOT NULL,
	"expiration_date" timestamp with time zone,
	"engine_hours" text DEFAULT 'gps' NOT NULL,
	"detect_engine" text DEFAULT 'gps' NOT NULL,
	"snap_to_road" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"timezone_id" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_icons_type_valid" CHECK ("devices"."device_icons_type" in ('arrow', 'icon', 'rotating'))
);
--> statement-breakpoint
CREATE TABLE "device_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_devices" (
	"user_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"group_id" integer,
	"current_driver_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"timezone_id" integer,
	CONSTRAINT "user_devices_pk" PRIMARY KEY("user_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "unregistered_devices" (
	"unique_id" text PRIMARY KEY NOT NULL,
	"protocol" text NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_groups" ADD CONSTRAINT "device_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_devices" ADD CONSTRAINT "user_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_devices" ADD CONSTRAINT "user_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_devices" ADD CONSTRAINT "user_devices_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "devices_imei_live_unique" ON "devices" USING btree ("imei") WHERE "devices"."deleted" = false;--> statement-breakpoint
CREATE INDEX "devices_updated_at_idx" ON "devices" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "device_groups_user_id_idx" ON "device_groups" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_devices_device_id_idx" ON "user_devices" USING btree ("device_id");