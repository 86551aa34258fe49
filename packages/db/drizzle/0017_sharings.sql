CREATE TABLE "sharing_devices" (
	"sharing_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "sharing_devices_sharing_id_device_id_pk" PRIMARY KEY("sharing_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "sharings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"hash" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone,
	"delete_after_expiration" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sharing_devices" ADD CONSTRAINT "sharing_devices_sharing_id_sharings_id_fk" FOREIGN KEY ("sharing_id") REFERENCES "public"."sharings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sharing_devices" ADD CONSTRAINT "sharing_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sharings" ADD CONSTRAINT "sharings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sharing_devices_device_id_idx" ON "sharing_devices" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "sharings_user_id_idx" ON "sharings" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sharings_hash_unique" ON "sharings" USING btree ("hash");