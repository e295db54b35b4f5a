CREATE TABLE "firmware_rollout_targets" (
	"rollout_id" bigint NOT NULL,
	"mac" text NOT NULL,
	"gateway_id" bigint,
	"wave" integer NOT NULL,
	"from_version" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"update_id" text,
	"error_code" integer,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "firmware_rollout_targets_rollout_id_mac_pk" PRIMARY KEY("rollout_id","mac")
);
--> statement-breakpoint
CREATE TABLE "firmware_rollouts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "firmware_rollouts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"target" text NOT NULL,
	"version" text NOT NULL,
	"selection" jsonb NOT NULL,
	"wave_size" integer NOT NULL,
	"concurrency" integer NOT NULL,
	"failure_threshold_pct" integer NOT NULL,
	"window" jsonb,
	"state" text NOT NULL,
	"pause_reason" text,
	"current_wave" integer DEFAULT 1 NOT NULL,
	"accepted_wave" integer DEFAULT 0 NOT NULL,
	"waves" integer NOT NULL,
	"step" integer DEFAULT 0 NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "firmware_rollouts_state_check" CHECK ("firmware_rollouts"."state" in ('running', 'paused', 'done', 'rollingBack', 'rolledBack'))
);
--> statement-breakpoint
ALTER TABLE "firmware_rollout_targets" ADD CONSTRAINT "firmware_rollout_targets_rollout_id_firmware_rollouts_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."firmware_rollouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollout_targets" ADD CONSTRAINT "firmware_rollout_targets_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollouts" ADD CONSTRAINT "firmware_rollouts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "firmware_rollout_targets_mac_idx" ON "firmware_rollout_targets" USING btree ("mac","state");--> statement-breakpoint
CREATE INDEX "firmware_rollouts_created_idx" ON "firmware_rollouts" USING btree ("created_at");