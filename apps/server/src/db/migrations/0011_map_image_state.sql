ALTER TABLE "map_images" ADD COLUMN "state" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "map_images" ADD COLUMN "uploaded_by" bigint;--> statement-breakpoint
ALTER TABLE "map_images" ADD CONSTRAINT "map_images_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;