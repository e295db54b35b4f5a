CREATE TABLE "buildings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "buildings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	"parent_id" bigint,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "map_images" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "map_images_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"file" text NOT NULL,
	"content_type" text NOT NULL,
	"source_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "maps" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "maps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	"build_id" bigint NOT NULL,
	"name" text NOT NULL,
	"image_id" bigint,
	"opacity" smallint DEFAULT 100 NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "projects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"parent_id" bigint,
	"name" text NOT NULL,
	"address" text,
	"longitude" double precision,
	"latitude" double precision,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_parent_id_buildings_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."buildings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_images" ADD CONSTRAINT "map_images_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maps" ADD CONSTRAINT "maps_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maps" ADD CONSTRAINT "maps_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maps" ADD CONSTRAINT "maps_build_id_buildings_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."buildings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maps" ADD CONSTRAINT "maps_image_id_map_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."map_images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_parent_id_projects_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "buildings_project_name_key" ON "buildings" USING btree ("project_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "buildings_tenant_default_key" ON "buildings" USING btree ("tenant_id") WHERE "buildings"."is_default";--> statement-breakpoint
CREATE INDEX "buildings_tenant_project_idx" ON "buildings" USING btree ("tenant_id","project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "map_images_file_key" ON "map_images" USING btree ("file");--> statement-breakpoint
CREATE INDEX "map_images_tenant_idx" ON "map_images" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "maps_build_name_key" ON "maps" USING btree ("build_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "maps_tenant_default_key" ON "maps" USING btree ("tenant_id") WHERE "maps"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "maps_image_key" ON "maps" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "maps_tenant_build_idx" ON "maps" USING btree ("tenant_id","build_id");--> statement-breakpoint
CREATE INDEX "maps_tenant_project_idx" ON "maps" USING btree ("tenant_id","project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_tenant_name_key" ON "projects" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_tenant_default_key" ON "projects" USING btree ("tenant_id") WHERE "projects"."is_default";--> statement-breakpoint
CREATE INDEX "projects_tenant_parent_idx" ON "projects" USING btree ("tenant_id","parent_id");