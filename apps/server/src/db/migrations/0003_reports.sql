CREATE TABLE "device_reports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"gateway_id" bigint NOT NULL,
	"tenant_id" bigint,
	"addr" text NOT NULL,
	"kind" text NOT NULL,
	"online" boolean NOT NULL,
	"fault" smallint NOT NULL,
	"state" jsonb NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_states" (
	"gateway_id" bigint NOT NULL,
	"addr" text NOT NULL,
	"tenant_id" bigint,
	"kind" text NOT NULL,
	"online" boolean NOT NULL,
	"fault" smallint NOT NULL,
	"state" jsonb NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_states_gateway_id_addr_pk" PRIMARY KEY("gateway_id","addr")
);
--> statement-breakpoint
ALTER TABLE "device_reports" ADD CONSTRAINT "device_reports_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_states" ADD CONSTRAINT "device_states_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_states" ADD CONSTRAINT "device_states_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_reports_gateway_addr_idx" ON "device_reports" USING btree ("gateway_id","addr","reported_at");