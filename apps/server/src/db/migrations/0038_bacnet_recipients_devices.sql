CREATE TABLE "bacnet_devices" (
	"project_id" bigint NOT NULL,
	"map_id" bigint NOT NULL,
	"slot" integer NOT NULL,
	CONSTRAINT "bacnet_devices_project_id_map_id_pk" PRIMARY KEY("project_id","map_id")
);
--> statement-breakpoint
CREATE TABLE "bacnet_recipients" (
	"project_id" bigint NOT NULL,
	"device_instance" integer NOT NULL,
	"recipients" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bacnet_recipients_project_id_device_instance_pk" PRIMARY KEY("project_id","device_instance")
);
--> statement-breakpoint
ALTER TABLE "bacnet_devices" ADD CONSTRAINT "bacnet_devices_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bacnet_recipients" ADD CONSTRAINT "bacnet_recipients_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bacnet_devices_slot_key" ON "bacnet_devices" USING btree ("project_id","slot");