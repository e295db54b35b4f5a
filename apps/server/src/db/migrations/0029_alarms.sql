CREATE TABLE "alarm_code_settings" (
	"tenant_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	"code" smallint NOT NULL,
	"severity" text NOT NULL,
	"on_delay_sec" integer NOT NULL,
	"off_delay_sec" integer NOT NULL,
	"chatter_count" integer NOT NULL,
	"chatter_window_sec" integer NOT NULL,
	CONSTRAINT "alarm_code_settings_project_id_code_pk" PRIMARY KEY("project_id","code")
);
--> statement-breakpoint
CREATE TABLE "alarm_rules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alarm_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"severities" jsonb NOT NULL,
	"steps" jsonb NOT NULL,
	"lang" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarms" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alarms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"gateway_id" bigint,
	"device_id" bigint,
	"addr" text NOT NULL,
	"code" smallint NOT NULL,
	"severity" text NOT NULL,
	"state" text NOT NULL,
	"chattering" boolean DEFAULT false NOT NULL,
	"raise_count" integer DEFAULT 1 NOT NULL,
	"name" text NOT NULL,
	"gateway_name" text NOT NULL,
	"project_id" bigint,
	"map_id" bigint,
	"raised_at" timestamp with time zone NOT NULL,
	"cleared_at" timestamp with time zone,
	"acked_at" timestamp with time zone,
	"acked_by_name" text,
	"shelved_until" timestamp with time zone,
	"shelved_reason" text,
	"shelved_by_name" text,
	"attention_round" integer DEFAULT 0 NOT NULL,
	"attention_since" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm_code_settings" ADD CONSTRAINT "alarm_code_settings_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_code_settings" ADD CONSTRAINT "alarm_code_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_rules" ADD CONSTRAINT "alarm_rules_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_rules" ADD CONSTRAINT "alarm_rules_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_rules_project_idx" ON "alarm_rules" USING btree ("project_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_standing_key" ON "alarms" USING btree ("gateway_id","addr","code") WHERE "alarms"."state" <> 'normal';--> statement-breakpoint
CREATE INDEX "alarms_tenant_state_idx" ON "alarms" USING btree ("tenant_id","state","raised_at");