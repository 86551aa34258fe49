CREATE TABLE "call_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"event_id" bigint,
	"alert_id" integer,
	"called_at" timestamp with time zone NOT NULL,
	"response_type" text NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_actions" ADD CONSTRAINT "call_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_actions" ADD CONSTRAINT "call_actions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_actions" ADD CONSTRAINT "call_actions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_actions" ADD CONSTRAINT "call_actions_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_actions_user_called_idx" ON "call_actions" USING btree ("user_id","called_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "call_actions_device_id_idx" ON "call_actions" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "call_actions_event_id_idx" ON "call_actions" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "call_actions_alert_id_idx" ON "call_actions" USING btree ("alert_id");