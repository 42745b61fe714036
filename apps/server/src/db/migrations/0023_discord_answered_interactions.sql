CREATE TABLE "discord_answered_interactions" (
	"interaction_id" text PRIMARY KEY NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "discord_answered_interactions_at_idx" ON "discord_answered_interactions" USING btree ("answered_at");