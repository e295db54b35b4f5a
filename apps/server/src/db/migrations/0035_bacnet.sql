CREATE TABLE "bacnet_leases" (
	"project_id" bigint PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bacnet_objects" (
	"project_id" bigint NOT NULL,
	"source" text NOT NULL,
	"source_id" bigint NOT NULL,
	"object_type" integer NOT NULL,
	"instance" integer NOT NULL,
	CONSTRAINT "bacnet_objects_project_id_source_source_id_object_type_pk" PRIMARY KEY("project_id","source","source_id","object_type")
);
--> statement-breakpoint
ALTER TABLE "bacnet_leases" ADD CONSTRAINT "bacnet_leases_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bacnet_objects" ADD CONSTRAINT "bacnet_objects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bacnet_objects_instance_key" ON "bacnet_objects" USING btree ("project_id","object_type","instance");