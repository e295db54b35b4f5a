CREATE TABLE "emergency_log_book" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "emergency_log_book_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"type" text NOT NULL,
	"device_id" bigint,
	"device_name" text DEFAULT '' NOT NULL,
	"addr" text DEFAULT '' NOT NULL,
	"map_name" text DEFAULT '' NOT NULL,
	"task_name" text DEFAULT '' NOT NULL,
	"run_id" bigint,
	"test" text,
	"result" text,
	"fault_code" smallint,
	"failures" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"by" text DEFAULT '' NOT NULL,
	"by_user_id" bigint,
	"ref_id" bigint
);
--> statement-breakpoint
CREATE TABLE "emergency_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "emergency_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"run_id" bigint NOT NULL,
	"device_id" bigint,
	"gateway_id" bigint NOT NULL,
	"addr" text NOT NULL,
	"device_name" text NOT NULL,
	"test" text NOT NULL,
	"wave" integer NOT NULL,
	"state" smallint,
	"result" smallint,
	"passed" boolean,
	"progress" smallint,
	"failures" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fault_code" smallint,
	"voltage_before" double precision,
	"voltage_after" double precision,
	"duration_s" double precision,
	"battery_voltage" double precision,
	"battery_current" double precision,
	"battery_temperature" double precision,
	"battery_cells" smallint,
	"power_w" double precision,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "emergency_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "emergency_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"task_id" bigint,
	"project_id" bigint NOT NULL,
	"map_id" bigint NOT NULL,
	"gateway_id" bigint NOT NULL,
	"task_name" text NOT NULL,
	"project_name" text NOT NULL,
	"map_name" text NOT NULL,
	"gateway_name" text NOT NULL,
	"test" text NOT NULL,
	"duration" integer NOT NULL,
	"duration_s" integer NOT NULL,
	"battery_cells" smallint NOT NULL,
	"allow_while_charging" boolean NOT NULL,
	"trigger" text NOT NULL,
	"state" text NOT NULL,
	"result" text,
	"waves" integer NOT NULL,
	"current_wave" integer NOT NULL,
	"next_wave_at" timestamp with time zone,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "emergency_task_devices" (
	"task_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	CONSTRAINT "emergency_task_devices_task_id_device_id_pk" PRIMARY KEY("task_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "emergency_tasks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "emergency_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	"build_id" bigint NOT NULL,
	"map_id" bigint NOT NULL,
	"gateway_id" bigint NOT NULL,
	"name" text NOT NULL,
	"test" text NOT NULL,
	"duration" integer NOT NULL,
	"battery_cells" smallint NOT NULL,
	"light_type" text NOT NULL,
	"allow_while_charging" boolean DEFAULT false NOT NULL,
	"schedule" jsonb NOT NULL,
	"stagger" jsonb NOT NULL,
	"next_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emergency_log_book" ADD CONSTRAINT "emergency_log_book_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_records" ADD CONSTRAINT "emergency_records_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_records" ADD CONSTRAINT "emergency_records_run_id_emergency_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."emergency_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_records" ADD CONSTRAINT "emergency_records_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_runs" ADD CONSTRAINT "emergency_runs_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_runs" ADD CONSTRAINT "emergency_runs_task_id_emergency_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."emergency_tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_task_devices" ADD CONSTRAINT "emergency_task_devices_task_id_emergency_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."emergency_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_task_devices" ADD CONSTRAINT "emergency_task_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_tasks" ADD CONSTRAINT "emergency_tasks_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_tasks" ADD CONSTRAINT "emergency_tasks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_tasks" ADD CONSTRAINT "emergency_tasks_build_id_buildings_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_tasks" ADD CONSTRAINT "emergency_tasks_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_tasks" ADD CONSTRAINT "emergency_tasks_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "emergency_log_book_project_seq_key" ON "emergency_log_book" USING btree ("project_id","seq");--> statement-breakpoint
CREATE INDEX "emergency_log_book_tenant_project_idx" ON "emergency_log_book" USING btree ("tenant_id","project_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "emergency_log_book_ack_key" ON "emergency_log_book" USING btree ("ref_id");--> statement-breakpoint
CREATE INDEX "emergency_records_run_idx" ON "emergency_records" USING btree ("run_id","wave");--> statement-breakpoint
CREATE INDEX "emergency_records_device_idx" ON "emergency_records" USING btree ("device_id","started_at");--> statement-breakpoint
CREATE INDEX "emergency_records_gateway_addr_idx" ON "emergency_records" USING btree ("gateway_id","addr","finished_at");--> statement-breakpoint
CREATE INDEX "emergency_runs_tenant_started_idx" ON "emergency_runs" USING btree ("tenant_id","started_at");--> statement-breakpoint
CREATE INDEX "emergency_runs_task_idx" ON "emergency_runs" USING btree ("task_id","started_at");--> statement-breakpoint
CREATE INDEX "emergency_runs_gateway_idx" ON "emergency_runs" USING btree ("gateway_id","state");--> statement-breakpoint
CREATE INDEX "emergency_task_devices_device_idx" ON "emergency_task_devices" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "emergency_tasks_tenant_name_key" ON "emergency_tasks" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "emergency_tasks_tenant_project_idx" ON "emergency_tasks" USING btree ("tenant_id","project_id");