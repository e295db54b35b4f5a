CREATE TABLE "device_param_templates" (
	"device_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"template_id" bigint NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_param_templates_device_id_kind_pk" PRIMARY KEY("device_id","kind")
);
--> statement-breakpoint
CREATE TABLE "param_templates" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "param_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"device_type" integer NOT NULL,
	"params" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "virtual_devices" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "virtual_devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"map_id" bigint NOT NULL,
	"gateway_id" bigint NOT NULL,
	"type" integer NOT NULL,
	"name" text NOT NULL,
	"x" double precision,
	"y" double precision,
	"function_template_id" bigint,
	"interface_template_id" bigint,
	"related_device_id" bigint,
	"related_at" timestamp with time zone,
	"handover" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "virtual_group_members" (
	"virtual_id" bigint NOT NULL,
	"group_id" bigint NOT NULL,
	CONSTRAINT "virtual_group_members_virtual_id_group_id_pk" PRIMARY KEY("virtual_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "virtual_scene_members" (
	"virtual_id" bigint NOT NULL,
	"scene_id" bigint NOT NULL,
	"step" smallint DEFAULT 0 NOT NULL,
	"action" jsonb NOT NULL,
	CONSTRAINT "virtual_scene_members_virtual_id_scene_id_pk" PRIMARY KEY("virtual_id","scene_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "push_auth" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "device_param_templates" ADD CONSTRAINT "device_param_templates_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_param_templates" ADD CONSTRAINT "device_param_templates_template_id_param_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."param_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "param_templates" ADD CONSTRAINT "param_templates_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_devices" ADD CONSTRAINT "virtual_devices_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_devices" ADD CONSTRAINT "virtual_devices_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_devices" ADD CONSTRAINT "virtual_devices_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_devices" ADD CONSTRAINT "virtual_devices_function_template_id_param_templates_id_fk" FOREIGN KEY ("function_template_id") REFERENCES "public"."param_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_devices" ADD CONSTRAINT "virtual_devices_interface_template_id_param_templates_id_fk" FOREIGN KEY ("interface_template_id") REFERENCES "public"."param_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_devices" ADD CONSTRAINT "virtual_devices_related_device_id_devices_id_fk" FOREIGN KEY ("related_device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_group_members" ADD CONSTRAINT "virtual_group_members_virtual_id_virtual_devices_id_fk" FOREIGN KEY ("virtual_id") REFERENCES "public"."virtual_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_group_members" ADD CONSTRAINT "virtual_group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_scene_members" ADD CONSTRAINT "virtual_scene_members_virtual_id_virtual_devices_id_fk" FOREIGN KEY ("virtual_id") REFERENCES "public"."virtual_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_scene_members" ADD CONSTRAINT "virtual_scene_members_scene_id_scenes_id_fk" FOREIGN KEY ("scene_id") REFERENCES "public"."scenes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_param_templates_template_idx" ON "device_param_templates" USING btree ("template_id");--> statement-breakpoint
CREATE UNIQUE INDEX "param_templates_tenant_kind_name_key" ON "param_templates" USING btree ("tenant_id","kind","name");--> statement-breakpoint
CREATE INDEX "virtual_devices_tenant_map_idx" ON "virtual_devices" USING btree ("tenant_id","map_id");--> statement-breakpoint
CREATE UNIQUE INDEX "virtual_devices_related_key" ON "virtual_devices" USING btree ("related_device_id");--> statement-breakpoint
CREATE INDEX "virtual_devices_function_template_idx" ON "virtual_devices" USING btree ("function_template_id");--> statement-breakpoint
CREATE INDEX "virtual_devices_interface_template_idx" ON "virtual_devices" USING btree ("interface_template_id");--> statement-breakpoint
CREATE INDEX "virtual_group_members_group_idx" ON "virtual_group_members" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "virtual_scene_members_scene_idx" ON "virtual_scene_members" USING btree ("scene_id");