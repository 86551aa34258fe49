CREATE TABLE "geofence_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "geofences" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"group_id" integer,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"polygon_color" text NOT NULL,
	"coordinates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"center" jsonb,
	"radius" double precision,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "geofences_type_valid" CHECK ("geofences"."type" in ('polygon', 'circle'))
);
--> statement-breakpoint
CREATE TABLE "routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"polyline" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_map_icons" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"map_icon_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"coordinates" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_devices" (
	"alert_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "alert_devices_pk" PRIMARY KEY("alert_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"zone" integer DEFAULT 0 NOT NULL,
	"zones" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"geofences" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"drivers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"events_custom" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"schedule" boolean DEFAULT false NOT NULL,
	"schedules" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"notifications" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"protocol" text NOT NULL,
	"conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message" text NOT NULL,
	"always" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gprs_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"protocol" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sent_commands" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" integer,
	"channel" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"request_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sent_commands_channel_valid" CHECK ("sent_commands"."channel" in ('gprs', 'sms')),
	CONSTRAINT "sent_commands_status_valid" CHECK ("sent_commands"."status" in ('queued', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "sms_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_statuses" (
	"id" serial PRIMARY KEY NOT NULL,
	"task_id" integer NOT NULL,
	"status" integer NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"signature" "bytea",
	"signature_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"title" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"priority" integer NOT NULL,
	"status" integer NOT NULL,
	"invoice_number" text DEFAULT '' NOT NULL,
	"pickup_address" text NOT NULL,
	"pickup_address_lat" double precision NOT NULL,
	"pickup_address_lng" double precision NOT NULL,
	"delivery_address" text NOT NULL,
	"delivery_address_lat" double precision NOT NULL,
	"delivery_address_lng" double precision NOT NULL,
	"pickup_time_from" timestamp with time zone NOT NULL,
	"pickup_time_to" timestamp with time zone NOT NULL,
	"delivery_time_from" timestamp with time zone NOT NULL,
	"delivery_time_to" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"type" integer NOT NULL,
	"format" text NOT NULL,
	"show_addresses" boolean DEFAULT false NOT NULL,
	"zones_instead" boolean DEFAULT false NOT NULL,
	"stops" integer DEFAULT 0 NOT NULL,
	"speed_limit" double precision,
	"daily" boolean DEFAULT false NOT NULL,
	"weekly" boolean DEFAULT false NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"devices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"geofences" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"parameters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"daily_email_sent" timestamp with time zone,
	"weekly_email_sent" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "geofence_groups" ADD CONSTRAINT "geofence_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geofences" ADD CONSTRAINT "geofences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geofences" ADD CONSTRAINT "geofences_group_id_geofence_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."geofence_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routes" ADD CONSTRAINT "routes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_map_icons" ADD CONSTRAINT "user_map_icons_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_devices" ADD CONSTRAINT "alert_devices_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_devices" ADD CONSTRAINT "alert_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_events" ADD CONSTRAINT "custom_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gprs_templates" ADD CONSTRAINT "gprs_templates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sent_commands" ADD CONSTRAINT "sent_commands_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sent_commands" ADD CONSTRAINT "sent_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_templates" ADD CONSTRAINT "sms_templates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_statuses" ADD CONSTRAINT "task_statuses_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "geofence_groups_user_id_idx" ON "geofence_groups" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "geofences_user_id_idx" ON "geofences" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "routes_user_id_idx" ON "routes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_map_icons_user_id_idx" ON "user_map_icons" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "alert_devices_device_id_idx" ON "alert_devices" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "alerts_user_id_idx" ON "alerts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "custom_events_user_id_idx" ON "custom_events" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "gprs_templates_user_id_idx" ON "gprs_templates" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sent_commands_user_id_idx" ON "sent_commands" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sent_commands_request_key_unique" ON "sent_commands" USING btree ("user_id","channel","device_id","request_key") WHERE "sent_commands"."request_key" is not null;--> statement-breakpoint
CREATE INDEX "sms_templates_user_id_idx" ON "sms_templates" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "task_statuses_task_id_idx" ON "task_statuses" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "tasks_user_id_idx" ON "tasks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tasks_device_id_idx" ON "tasks" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "reports_user_id_idx" ON "reports" USING btree ("user_id");