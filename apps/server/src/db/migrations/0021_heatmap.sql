CREATE TABLE "heatmap_settings" (
	"project_id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"levels" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sensor_activation_windows" (
	"device_id" bigint NOT NULL,
	"tenant_id" bigint NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"local_start" timestamp NOT NULL,
	CONSTRAINT "sensor_activation_windows_device_id_window_start_pk" PRIMARY KEY("device_id","window_start")
);
--> statement-breakpoint
ALTER TABLE "heatmap_settings" ADD CONSTRAINT "heatmap_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heatmap_settings" ADD CONSTRAINT "heatmap_settings_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_activation_windows" ADD CONSTRAINT "sensor_activation_windows_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_activation_windows" ADD CONSTRAINT "sensor_activation_windows_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sensor_activation_windows_device_local_idx" ON "sensor_activation_windows" USING btree ("device_id","local_start");