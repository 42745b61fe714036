-- Issue 13 §3: each server process remembers live sessions for a few seconds instead of reading them on
-- every request (modules/accounts/session-cache.ts). Whoever changes a user's row or ends a session (an
-- admin in another process, the CLI, a plain SQL statement) tells every process at commit: the payload
-- is the user's id, '' for "forget everyone" (TRUNCATE).
CREATE FUNCTION "notify_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('haversack_user_changed', '');
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('haversack_user_changed', OLD."id"::text);
  ELSE
    PERFORM pg_notify('haversack_user_changed', OLD."user_id"::text);
    IF TG_OP = 'UPDATE' AND NEW."user_id" <> OLD."user_id" THEN
      PERFORM pg_notify('haversack_user_changed', NEW."user_id"::text);
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_notify_changed" AFTER UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"();--> statement-breakpoint
CREATE TRIGGER "users_notify_truncated" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "notify_user_changed"();--> statement-breakpoint
CREATE TRIGGER "auth_sessions_notify_changed" AFTER UPDATE OF "revoked_at", "user_id" OR DELETE ON "auth_sessions" FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"();--> statement-breakpoint
CREATE TRIGGER "auth_sessions_notify_truncated" AFTER TRUNCATE ON "auth_sessions" FOR EACH STATEMENT EXECUTE FUNCTION "notify_user_changed"();
