CREATE TABLE "project_holidays" (
	"project_id" bigint NOT NULL,
	"date" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	CONSTRAINT "project_holidays_project_id_date_pk" PRIMARY KEY("project_id","date")
);
--> statement-breakpoint
CREATE TABLE "project_scene_settings" (
	"project_id" bigint PRIMARY KEY NOT NULL,
	"override_min" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scene_members" (
	"scene_id" bigint NOT NULL,
	"step" smallint NOT NULL,
	"position" smallint NOT NULL,
	"device_id" bigint,
	"group_id" bigint,
	"action" jsonb NOT NULL,
	CONSTRAINT "scene_members_scene_id_step_position_pk" PRIMARY KEY("scene_id","step","position"),
	CONSTRAINT "scene_members_one_target" CHECK (("scene_members"."device_id" IS NULL) <> ("scene_members"."group_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "scene_panel_keys" (
	"panel_id" bigint NOT NULL,
	"key" smallint NOT NULL,
	"scene_id" bigint NOT NULL,
	CONSTRAINT "scene_panel_keys_panel_id_key_pk" PRIMARY KEY("panel_id","key")
);
--> statement-breakpoint
CREATE TABLE "scene_parts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "scene_parts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"scene_id" bigint NOT NULL,
	"gateway_id" bigint NOT NULL,
	"number" integer NOT NULL,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scene_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "scene_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"scene_id" bigint NOT NULL,
	"gateway_id" bigint NOT NULL,
	"run_key" text NOT NULL,
	"trigger" text NOT NULL,
	"then" text NOT NULL,
	"code" integer NOT NULL,
	"targets" integer NOT NULL,
	"failed" integer NOT NULL,
	"ran_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scenes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "scenes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"image" text,
	"fade_s" integer DEFAULT 0 NOT NULL,
	"holds" jsonb NOT NULL,
	"triggers" jsonb NOT NULL,
	"days" jsonb NOT NULL,
	"from_date" text,
	"to_date" text,
	"skip_holidays" boolean DEFAULT false NOT NULL,
	"dali_scene" smallint,
	"sequence_no" smallint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sensor_linkages" (
	"sensor_id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"group_id" bigint NOT NULL,
	"on_detect_percent" smallint NOT NULL,
	"on_clear_percent" smallint NOT NULL,
	"hold_s" integer NOT NULL,
	"lux" integer,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "project_holidays" ADD CONSTRAINT "project_holidays_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_scene_settings" ADD CONSTRAINT "project_scene_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_members" ADD CONSTRAINT "scene_members_scene_id_scenes_id_fk" FOREIGN KEY ("scene_id") REFERENCES "public"."scenes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_members" ADD CONSTRAINT "scene_members_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_members" ADD CONSTRAINT "scene_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_panel_keys" ADD CONSTRAINT "scene_panel_keys_panel_id_devices_id_fk" FOREIGN KEY ("panel_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_panel_keys" ADD CONSTRAINT "scene_panel_keys_scene_id_scenes_id_fk" FOREIGN KEY ("scene_id") REFERENCES "public"."scenes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_parts" ADD CONSTRAINT "scene_parts_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_parts" ADD CONSTRAINT "scene_parts_scene_id_scenes_id_fk" FOREIGN KEY ("scene_id") REFERENCES "public"."scenes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_parts" ADD CONSTRAINT "scene_parts_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_runs" ADD CONSTRAINT "scene_runs_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_runs" ADD CONSTRAINT "scene_runs_scene_id_scenes_id_fk" FOREIGN KEY ("scene_id") REFERENCES "public"."scenes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_runs" ADD CONSTRAINT "scene_runs_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scenes" ADD CONSTRAINT "scenes_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scenes" ADD CONSTRAINT "scenes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_linkages" ADD CONSTRAINT "sensor_linkages_sensor_id_devices_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_linkages" ADD CONSTRAINT "sensor_linkages_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_linkages" ADD CONSTRAINT "sensor_linkages_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scene_members_device_idx" ON "scene_members" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "scene_members_group_idx" ON "scene_members" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "scene_panel_keys_scene_idx" ON "scene_panel_keys" USING btree ("scene_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scene_parts_gateway_number_key" ON "scene_parts" USING btree ("gateway_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "scene_parts_scene_gateway_key" ON "scene_parts" USING btree ("scene_id","gateway_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scene_runs_gateway_key" ON "scene_runs" USING btree ("scene_id","gateway_id","run_key");--> statement-breakpoint
CREATE INDEX "scene_runs_scene_time_idx" ON "scene_runs" USING btree ("scene_id","ran_at");--> statement-breakpoint
CREATE UNIQUE INDEX "scenes_project_name_key" ON "scenes" USING btree ("project_id","name");--> statement-breakpoint
CREATE INDEX "scenes_tenant_project_idx" ON "scenes" USING btree ("tenant_id","project_id");--> statement-breakpoint
CREATE INDEX "sensor_linkages_group_idx" ON "sensor_linkages" USING btree ("group_id");