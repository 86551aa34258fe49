ALTER TABLE "services" ADD COLUMN "notified_cycle" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "service_id" integer;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_service_id_idx" ON "events" USING btree ("service_id");