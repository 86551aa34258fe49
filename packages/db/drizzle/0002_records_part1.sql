CREATE TABLE "drivers" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" integer,
	"name" text NOT NULL,
	"rfid" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sensors" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"tag_name" text DEFAULT '' NOT NULL,
	"unit_of_measurement" text DEFAULT '' NOT NULL,
	"show_in_popup" boolean DEFAULT false NOT NULL,
	"add_to_history" boolean DEFAULT false NOT NULL,
	"on_value" text,
	"off_value" text,
	"shown_value_by" text,
	"min_value" double precision,
	"max_value" double precision,
	"formula" text,
	"odometer_value_by" text,
	"odometer_value" double precision,
	"odometer_value_unit" text DEFAULT 'km' NOT NULL,
	"odometer_baseline_km" double precision,
	"fuel_tank_name" text,
	"full_tank" double precision,
	"full_tank_value" double precision,
	"calibrations" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sensors_type_valid" CHECK ("sensors"."type" in ('acc','battery','door','engine','engine_hours','fuel_tank','fuel_tank_calibration','gsm','harsh_acceleration','harsh_breaking','ignition','odometer','satellites','tachometer','temperature'))
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"name" text NOT NULL,
	"expiration_by" text NOT NULL,
	"interval" double precision NOT NULL,
	"last_service" text NOT NULL,
	"trigger_event_left" double precision DEFAULT 0 NOT NULL,
	"renew_after_expiration" boolean DEFAULT false NOT NULL,
	"event_sent" boolean DEFAULT false NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"mobile_phone" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_expiration_by_valid" CHECK ("services"."expiration_by" in ('odometer','engine_hours','days'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_gateway" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_gateway_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_gateway_params" jsonb DEFAULT '{"request_method":"get","authentication":0,"encoding":"0","username":"","password":"","auth_id":"","auth_token":"","senders_phone":""}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "dst" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "week_start_day" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_devices" ADD COLUMN "current_driver_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensors" ADD CONSTRAINT "sensors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensors" ADD CONSTRAINT "sensors_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drivers_user_id_idx" ON "drivers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "drivers_device_id_idx" ON "drivers" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "sensors_device_id_idx" ON "sensors" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "sensors_user_id_idx" ON "sensors" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "services_device_id_idx" ON "services" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "services_user_id_idx" ON "services" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "user_devices" ADD CONSTRAINT "user_devices_current_driver_id_drivers_id_fk" FOREIGN KEY ("current_driver_id") REFERENCES "public"."drivers"("id") ON DELETE set null ON UPDATE no action;