CREATE TABLE "sso_flows" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"browser_hash" text NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_links" (
	"tenant_id" bigint NOT NULL,
	"claim_value" text NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sso_links_tenant_id_claim_value_pk" PRIMARY KEY("tenant_id","claim_value")
);
--> statement-breakpoint
CREATE TABLE "sso_settings" (
	"tenant_id" bigint PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"claim" text NOT NULL,
	"domain" text NOT NULL,
	"default_operate_auth" smallint NOT NULL,
	"local_sign_in_off" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sso_flows" ADD CONSTRAINT "sso_flows_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_links" ADD CONSTRAINT "sso_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_settings" ADD CONSTRAINT "sso_settings_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_flows_expires_idx" ON "sso_flows" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_settings_domain_key" ON "sso_settings" USING btree ("domain");