ALTER TABLE "subscriptions" ADD COLUMN "cancelled_tier_id" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_cancelled_tier_id_subscription_tiers_id_fk" FOREIGN KEY ("cancelled_tier_id") REFERENCES "public"."subscription_tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- A cancellation still waiting for its period's end is on the plan it cancelled; one that has taken effect
-- left the row on Free, and what it ended was not kept, so it stays unknown (null).
UPDATE "subscriptions" AS s
SET "cancelled_tier_id" = s."tier_id"
FROM "subscription_tiers" AS t
WHERE s."cancelled_at" IS NOT NULL
  AND t."id" = s."tier_id"
  AND t."identifier" <> 'tier_free';
