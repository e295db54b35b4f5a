CREATE TABLE "push_app_accounts" (
	"app_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "push_app_accounts_app_id_user_id_pk" PRIMARY KEY("app_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "push_apps" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "push_apps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"icon" text,
	"package_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_categories" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "push_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_news" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "push_news_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"title" text NOT NULL,
	"cover" text,
	"category_id" bigint NOT NULL,
	"app_id" bigint NOT NULL,
	"lang" text NOT NULL,
	"content" text NOT NULL,
	"recommended" boolean DEFAULT false NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"operator_id" bigint,
	"views" integer DEFAULT 0 NOT NULL,
	"reviewer_id" bigint,
	"reason" text,
	"submitted_at" timestamp with time zone,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_types" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "library_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"type" integer NOT NULL,
	"icon" text,
	"initial_power" double precision NOT NULL,
	"lifespan" integer NOT NULL,
	"part_number" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "push_app_accounts" ADD CONSTRAINT "push_app_accounts_app_id_push_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."push_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_app_accounts" ADD CONSTRAINT "push_app_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_apps" ADD CONSTRAINT "push_apps_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_categories" ADD CONSTRAINT "push_categories_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_news" ADD CONSTRAINT "push_news_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_news" ADD CONSTRAINT "push_news_category_id_push_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."push_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_news" ADD CONSTRAINT "push_news_app_id_push_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."push_apps"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_news" ADD CONSTRAINT "push_news_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_news" ADD CONSTRAINT "push_news_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_types" ADD CONSTRAINT "library_types_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_apps_package_key" ON "push_apps" USING btree ("package_name");--> statement-breakpoint
CREATE INDEX "push_apps_tenant_idx" ON "push_apps" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "push_categories_tenant_name_key" ON "push_categories" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "push_news_tenant_idx" ON "push_news" USING btree ("tenant_id","updated_at");--> statement-breakpoint
CREATE INDEX "push_news_review_idx" ON "push_news" USING btree ("state","submitted_at");--> statement-breakpoint
CREATE INDEX "push_news_public_idx" ON "push_news" USING btree ("app_id","lang","state","reviewed_at");--> statement-breakpoint
CREATE INDEX "push_news_category_idx" ON "push_news" USING btree ("category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "library_types_tenant_name_key" ON "library_types" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "library_types_tenant_part_key" ON "library_types" USING btree ("tenant_id","part_number");--> statement-breakpoint
CREATE INDEX "library_types_tenant_type_idx" ON "library_types" USING btree ("tenant_id","type");