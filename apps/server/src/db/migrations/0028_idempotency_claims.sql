-- A claim of an Idempotency-Key left without an answer (its process died) no longer holds the key for a day
-- when its change certainly did not commit (plugins/idempotency.ts, db/claim-commits.ts). The change's own
-- transaction marks the claim `committed` just before its commit, through "idempotency_key_committed".
ALTER TABLE "idempotency_keys" ADD COLUMN "committed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
-- Claims made before the mark existed may have committed: they stay held until they expire.
UPDATE "idempotency_keys" SET "committed" = true WHERE "status" IS NULL;--> statement-breakpoint
-- Marks a claim as made by the transaction it runs in. A claim taken over by a retry (its row gone) raises,
-- so that the transaction rolls back: the change is then made by the retry alone, never twice.
CREATE FUNCTION "idempotency_key_committed"(claim uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "idempotency_keys" SET "committed" = true WHERE "id" = claim;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'This request''s Idempotency-Key was taken over by a retry; its change is not made.'
      USING ERRCODE = '40001';
  END IF;
END
$$;
