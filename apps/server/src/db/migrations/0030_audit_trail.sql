CREATE TABLE "audit_trail" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_trail_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"tenant_id" bigint,
	"user_id" bigint,
	"user_name" text DEFAULT '' NOT NULL,
	"actor" text NOT NULL,
	"via" text NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"endpoint" text NOT NULL,
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"targets" text[] DEFAULT '{}'::text[] NOT NULL,
	"project_id" bigint,
	"request" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"before" jsonb,
	"code" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_trail_tenant_at_idx" ON "audit_trail" USING btree ("tenant_id","at");--> statement-breakpoint
CREATE INDEX "audit_trail_at_idx" ON "audit_trail" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_trail_project_at_idx" ON "audit_trail" USING btree ("project_id","at");--> statement-breakpoint
CREATE INDEX "audit_trail_targets_idx" ON "audit_trail" USING gin ("targets");--> statement-breakpoint
-- The audit trail is appended to, never changed: UPDATE is refused, and DELETE too unless audit_trail_purge (the
-- retention job) is removing rows older than its cutoff, which it names in a setting local to its transaction.
-- TRUNCATE stays allowed: it takes the table owner, and a whole-installation restore (backup) replaces every table with it.
CREATE OR REPLACE FUNCTION audit_trail_append_only() RETURNS trigger AS $$
DECLARE
  cutoff text := current_setting('lumigrid.audit_purge_before', true);
BEGIN
  IF TG_OP = 'DELETE' AND cutoff IS NOT NULL AND cutoff <> '' AND OLD.at < cutoff::timestamptz THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_trail is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER audit_trail_append_only
  BEFORE UPDATE OR DELETE ON audit_trail
  FOR EACH ROW EXECUTE FUNCTION audit_trail_append_only();
--> statement-breakpoint
-- The one deleter: removes the entries older than `cutoff`, which must lie at least a day in the past, and
-- answers how many went.
CREATE OR REPLACE FUNCTION audit_trail_purge(cutoff timestamptz) RETURNS bigint AS $$
DECLARE
  removed bigint;
BEGIN
  IF cutoff > now() - interval '1 day' THEN
    RAISE EXCEPTION 'audit_trail_purge keeps at least the last day' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM set_config('lumigrid.audit_purge_before', cutoff::text, true);
  DELETE FROM audit_trail WHERE at < cutoff;
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('lumigrid.audit_purge_before', '', true);
  RETURN removed;
END;
$$ LANGUAGE plpgsql;
