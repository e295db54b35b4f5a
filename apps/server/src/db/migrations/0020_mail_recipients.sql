CREATE TABLE "mail_recipients" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mail_recipients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	"name" text NOT NULL,
	"mail" text NOT NULL,
	"unit" text NOT NULL,
	"month_day" text,
	"weekday" smallint,
	"send_time" text NOT NULL,
	"time_zone" text NOT NULL,
	"contents" text[] NOT NULL,
	"realtime_faults" boolean DEFAULT false NOT NULL,
	"lang" text NOT NULL,
	"next_send_at" timestamp with time zone NOT NULL,
	"last_sent_at" timestamp with time zone,
	"last_error" text,
	"faults_mailed_through" bigint,
	"last_fault_mail_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_recipients_unit_check" CHECK ("mail_recipients"."unit" in ('year', 'month', 'week', 'day'))
);
--> statement-breakpoint
CREATE TABLE "mail_report_sends" (
	"recipient_id" bigint NOT NULL,
	"occurrence" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mail_report_sends_recipient_id_occurrence_pk" PRIMARY KEY("recipient_id","occurrence")
);
--> statement-breakpoint
ALTER TABLE "mail_recipients" ADD CONSTRAINT "mail_recipients_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_recipients" ADD CONSTRAINT "mail_recipients_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_report_sends" ADD CONSTRAINT "mail_report_sends_recipient_id_mail_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."mail_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_recipients_tenant_project_idx" ON "mail_recipients" USING btree ("tenant_id","project_id","id");