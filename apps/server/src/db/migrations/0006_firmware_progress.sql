ALTER TABLE "gateways" ADD COLUMN "fw_update_id" text;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "fw_target" text;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "fw_version" text;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "fw_stage" text;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "fw_progress" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "fw_result" smallint;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "fw_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "fw_deadline_at" timestamp with time zone;