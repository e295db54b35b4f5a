CREATE TABLE "group_devices" (
	"group_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	CONSTRAINT "group_devices_group_id_device_id_pk" PRIMARY KEY("group_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"gateway_id" bigint NOT NULL,
	"map_id" bigint NOT NULL,
	"name" text NOT NULL,
	"number" integer NOT NULL,
	"type" smallint DEFAULT 0 NOT NULL,
	"member_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "group_devices" ADD CONSTRAINT "group_devices_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_devices" ADD CONSTRAINT "group_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_devices_device_idx" ON "group_devices" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "groups_gateway_number_key" ON "groups" USING btree ("gateway_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "groups_map_name_key" ON "groups" USING btree ("map_id","name");--> statement-breakpoint
CREATE INDEX "groups_tenant_map_idx" ON "groups" USING btree ("tenant_id","map_id");