ALTER TABLE "events" ADD COLUMN "sound" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "push" boolean DEFAULT false NOT NULL;