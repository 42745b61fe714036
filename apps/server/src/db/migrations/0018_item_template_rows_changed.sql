-- Issue 13 §3: a kept container page (inventory.statements.ts, ITEMS_FINGERPRINT_OF) is built from its
-- stacks and their templates. Reading each template's row version on every read cost more than the rest
-- of the read; this counter says instead "some template row changed". Every statement that updates,
-- deletes or truncates templates, by any path and of any visibility, bumps it; inserting one does not
-- (a new template is in no container yet).
ALTER TABLE "item_template_generation" ADD COLUMN "rows_changed" bigint NOT NULL DEFAULT 1;--> statement-breakpoint
CREATE FUNCTION "bump_item_template_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "item_template_generation" SET "rows_changed" = "rows_changed" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "item_templates_rows_changed" AFTER UPDATE OR DELETE OR TRUNCATE ON "item_templates" FOR EACH STATEMENT EXECUTE FUNCTION "bump_item_template_rows_changed"();
