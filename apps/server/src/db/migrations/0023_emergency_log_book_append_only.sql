-- The emergency log book is appended to, never changed (EN 50172): UPDATE is refused, and DELETE too unless the
-- account the entry belongs to is being deleted (its rows go by the tenant's ON DELETE CASCADE). TRUNCATE stays
-- allowed: it takes the table owner, and a whole-installation restore (backup) replaces every table with it.
CREATE OR REPLACE FUNCTION emergency_log_book_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM users WHERE id = OLD.tenant_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'emergency_log_book is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER emergency_log_book_append_only
  BEFORE UPDATE OR DELETE ON emergency_log_book
  FOR EACH ROW EXECUTE FUNCTION emergency_log_book_append_only();
