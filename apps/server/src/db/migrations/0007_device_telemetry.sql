CREATE TABLE "device_telemetry" (
	"gateway_id" bigint NOT NULL,
	"addr" text NOT NULL,
	"power" real,
	"voltage" real,
	"current" real,
	"energy_wh" double precision,
	"battery" real,
	"temperature" real,
	"lux" real,
	"reported_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_telemetry_gateway_id_addr_pk" PRIMARY KEY("gateway_id","addr")
);
--> statement-breakpoint
ALTER TABLE "device_telemetry" ADD CONSTRAINT "device_telemetry_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;