CREATE TABLE "devices" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"gateway_id" bigint NOT NULL,
	"bridge_id" bigint,
	"map_id" bigint,
	"addr" text NOT NULL,
	"network_address" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"type" integer NOT NULL,
	"name" text NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"firmware" text DEFAULT '' NOT NULL,
	"status" text DEFAULT '' NOT NULL,
	"type_status" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateways" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gateways_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"mac" text NOT NULL,
	"tenant_id" bigint,
	"map_id" bigint,
	"name" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"longitude" double precision,
	"latitude" double precision,
	"timezone" text,
	"report_interval_s" integer,
	"sensor_mode" text,
	"info" jsonb,
	"super_gateway" boolean DEFAULT false NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"offline_reason" text,
	"last_seen_at" timestamp with time zone,
	"config_version" integer DEFAULT 1 NOT NULL,
	"synced_version" integer DEFAULT 0 NOT NULL,
	"sync_status" smallint DEFAULT 1 NOT NULL,
	"bound_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_bridge_id_devices_id_fk" FOREIGN KEY ("bridge_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "devices_gateway_addr_key" ON "devices" USING btree ("gateway_id","addr");--> statement-breakpoint
CREATE INDEX "devices_tenant_map_idx" ON "devices" USING btree ("tenant_id","map_id");--> statement-breakpoint
CREATE INDEX "devices_tenant_gateway_idx" ON "devices" USING btree ("tenant_id","gateway_id");--> statement-breakpoint
CREATE INDEX "devices_bridge_idx" ON "devices" USING btree ("bridge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gateways_mac_key" ON "gateways" USING btree ("mac");--> statement-breakpoint
CREATE INDEX "gateways_tenant_map_idx" ON "gateways" USING btree ("tenant_id","map_id");