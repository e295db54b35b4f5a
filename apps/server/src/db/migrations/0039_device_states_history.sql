ALTER TABLE "device_states" ADD COLUMN "history_digest" bigint;--> statement-breakpoint
ALTER TABLE "device_states" ADD COLUMN "history_at" timestamp with time zone;