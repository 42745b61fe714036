-- Issue 13 §3: search/items answers from an in-memory index of the public templates. Every statement
-- that changes a public template (or renames a user, whose name the answers carry) bumps this one counter,
-- so that each server process sees any writer's change (admin CLI, seed, another process) at its next
-- search. A statement that only touches private or unlisted templates leaves it alone.
CREATE TABLE "item_template_generation" ("id" integer PRIMARY KEY DEFAULT 1 CHECK ("id" = 1), "n" bigint NOT NULL);--> statement-breakpoint
INSERT INTO "item_template_generation" ("id", "n") VALUES (1, 1);--> statement-breakpoint
CREATE FUNCTION "bump_item_template_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "item_template_generation" SET "n" = "n" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "bump_item_template_generation_if_public"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    IF EXISTS (SELECT 1 FROM "new_rows" WHERE "visibility" = 'public') THEN
      UPDATE "item_template_generation" SET "n" = "n" + 1 WHERE "id" = 1;
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    IF EXISTS (SELECT 1 FROM "old_rows" WHERE "visibility" = 'public') THEN
      UPDATE "item_template_generation" SET "n" = "n" + 1 WHERE "id" = 1;
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "item_templates_insert_generation" AFTER INSERT ON "item_templates" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_item_template_generation_if_public"();--> statement-breakpoint
CREATE TRIGGER "item_templates_update_generation" AFTER UPDATE ON "item_templates" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_item_template_generation_if_public"();--> statement-breakpoint
CREATE TRIGGER "item_templates_delete_generation" AFTER DELETE ON "item_templates" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_item_template_generation_if_public"();--> statement-breakpoint
CREATE TRIGGER "item_templates_truncate_generation" AFTER TRUNCATE ON "item_templates" FOR EACH STATEMENT EXECUTE FUNCTION "bump_item_template_generation"();--> statement-breakpoint
CREATE TRIGGER "users_rename_item_template_generation" AFTER UPDATE OF "username" ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "bump_item_template_generation"();
