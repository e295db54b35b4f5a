ALTER TABLE "emergency_log_book" ADD COLUMN "build_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "emergency_log_book" ADD COLUMN "trigger" text;--> statement-breakpoint
ALTER TABLE "emergency_log_book" ADD COLUMN "started_by" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "emergency_log_book" ADD COLUMN "stopped_by" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "emergency_log_book" ADD COLUMN "duration_s" double precision;--> statement-breakpoint
ALTER TABLE "emergency_log_book" ADD COLUMN "rated_duration_s" integer;--> statement-breakpoint
ALTER TABLE "emergency_runs" ADD COLUMN "build_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "emergency_runs" ADD COLUMN "started_by" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "emergency_runs" ADD COLUMN "started_by_user_id" bigint;--> statement-breakpoint
ALTER TABLE "emergency_runs" ADD COLUMN "stopped_by" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "emergency_runs" ADD COLUMN "stopped_by_user_id" bigint;