CREATE TABLE "known_devices" (
	"user_id" bigint NOT NULL,
	"device_hash" text NOT NULL,
	"last_sign_in_at" timestamp with time zone NOT NULL,
	CONSTRAINT "known_devices_user_id_device_hash_pk" PRIMARY KEY("user_id","device_hash")
);
--> statement-breakpoint
CREATE TABLE "sign_in_account_holds" (
	"login" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL,
	"not_before" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_images" (
	"file" text PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_images" ADD CONSTRAINT "push_images_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "known_devices_last_sign_in_idx" ON "known_devices" USING btree ("last_sign_in_at");--> statement-breakpoint
CREATE INDEX "sign_in_account_holds_last_attempt_idx" ON "sign_in_account_holds" USING btree ("last_attempt_at");--> statement-breakpoint
CREATE INDEX "push_images_tenant_idx" ON "push_images" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "sign_in_failures_window_start_idx" ON "sign_in_failures" USING btree ("window_start");--> statement-breakpoint
-- Pictures already in use belong to the account that uses them.
INSERT INTO "push_images" ("file", "tenant_id") SELECT "icon", "tenant_id" FROM "push_apps" WHERE "icon" IS NOT NULL ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "push_images" ("file", "tenant_id") SELECT "cover", "tenant_id" FROM "push_news" WHERE "cover" IS NOT NULL ON CONFLICT DO NOTHING;
