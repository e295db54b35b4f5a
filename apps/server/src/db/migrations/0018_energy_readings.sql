CREATE TABLE "energy_device_hours" (
	"device_id" bigint NOT NULL,
	"tenant_id" bigint NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"energy_wh" double precision DEFAULT 0 NOT NULL,
	"saved_wh" double precision DEFAULT 0 NOT NULL,
	"on_s" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "energy_device_hours_device_id_hour_pk" PRIMARY KEY("device_id","hour")
);
--> statement-breakpoint
CREATE TABLE "energy_device_state" (
	"device_id" bigint PRIMARY KEY NOT NULL,
	"read_at" timestamp with time zone,
	"counter_wh" double precision,
	"counter_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "energy_map_days" (
	"tenant_id" bigint NOT NULL,
	"map_id" bigint,
	"local_date" date NOT NULL,
	"energy_wh" double precision DEFAULT 0 NOT NULL,
	"saved_wh" double precision DEFAULT 0 NOT NULL,
	"on_s" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "energy_map_days_key" UNIQUE NULLS NOT DISTINCT("tenant_id","map_id","local_date")
);
--> statement-breakpoint
CREATE TABLE "energy_map_hours" (
	"tenant_id" bigint NOT NULL,
	"map_id" bigint,
	"local_hour" timestamp NOT NULL,
	"energy_wh" double precision DEFAULT 0 NOT NULL,
	"saved_wh" double precision DEFAULT 0 NOT NULL,
	"on_s" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "energy_map_hours_key" UNIQUE NULLS NOT DISTINCT("tenant_id","map_id","local_hour")
);
--> statement-breakpoint
CREATE TABLE "energy_readings" (
	"device_id" bigint NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"energy_wh" real,
	"power_w" real
) PARTITION BY RANGE ("read_at");
-- Partitioned by hand (drizzle cannot say it): the energy repo creates each month's partition before its first reading.
--> statement-breakpoint
ALTER TABLE "energy_device_hours" ADD CONSTRAINT "energy_device_hours_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_device_hours" ADD CONSTRAINT "energy_device_hours_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_device_state" ADD CONSTRAINT "energy_device_state_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_map_days" ADD CONSTRAINT "energy_map_days_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_map_hours" ADD CONSTRAINT "energy_map_hours_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "energy_device_hours_tenant_hour_idx" ON "energy_device_hours" USING btree ("tenant_id","hour");--> statement-breakpoint
CREATE INDEX "energy_readings_read_at_idx" ON "energy_readings" USING brin ("read_at");