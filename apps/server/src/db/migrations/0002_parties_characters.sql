CREATE TABLE "characters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"party_id" uuid,
	"name" text NOT NULL,
	"race" text DEFAULT '' NOT NULL,
	"character_class" text DEFAULT '' NOT NULL,
	"level" integer DEFAULT 1 NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"max_weight" numeric(10, 2),
	"max_slots" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "containers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"character_id" uuid,
	"party_id" uuid,
	"is_primary" boolean DEFAULT false NOT NULL,
	"max_weight" numeric(10, 2),
	"max_slots" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "containers_one_owner" CHECK (num_nonnulls("containers"."character_id", "containers"."party_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_type" text NOT NULL,
	"party_id" uuid,
	"character_id" uuid,
	"actor_id" uuid,
	"actor_name" text,
	"target_name" text,
	"item_template_id" uuid,
	"item_instance_id" uuid,
	"item_name" text,
	"quantity" integer,
	"amount_cp" integer,
	"currency" text,
	"source_container_id" uuid,
	"source_name" text,
	"destination_container_id" uuid,
	"destination_name" text,
	"summary" text NOT NULL,
	"notes" text,
	"details" jsonb,
	"transaction_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parties" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"game_system" text DEFAULT '' NOT NULL,
	"setting" text DEFAULT '' NOT NULL,
	"join_permission" text DEFAULT 'limited' NOT NULL,
	"encumbrance_style" text DEFAULT 'both' NOT NULL,
	"join_code" text,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_archived" boolean DEFAULT false NOT NULL,
	"game_master_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "party_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"party_id" uuid NOT NULL,
	"invited_user_id" uuid NOT NULL,
	"invited_by_id" uuid NOT NULL,
	"role" text DEFAULT 'player' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"responded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "party_memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"party_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patronages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"party_id" uuid NOT NULL,
	"patron_id" uuid NOT NULL,
	"beneficiary_id" uuid NOT NULL,
	"granted_tier_id" uuid NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text
);
--> statement-breakpoint
ALTER TABLE "characters" ADD CONSTRAINT "characters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "characters" ADD CONSTRAINT "characters_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_character_id_characters_id_fk" FOREIGN KEY ("character_id") REFERENCES "public"."characters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parties" ADD CONSTRAINT "parties_game_master_id_users_id_fk" FOREIGN KEY ("game_master_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_invitations" ADD CONSTRAINT "party_invitations_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_invitations" ADD CONSTRAINT "party_invitations_invited_user_id_users_id_fk" FOREIGN KEY ("invited_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_invitations" ADD CONSTRAINT "party_invitations_invited_by_id_users_id_fk" FOREIGN KEY ("invited_by_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_memberships" ADD CONSTRAINT "party_memberships_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_memberships" ADD CONSTRAINT "party_memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patronages" ADD CONSTRAINT "patronages_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patronages" ADD CONSTRAINT "patronages_patron_id_users_id_fk" FOREIGN KEY ("patron_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patronages" ADD CONSTRAINT "patronages_beneficiary_id_users_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patronages" ADD CONSTRAINT "patronages_granted_tier_id_subscription_tiers_id_fk" FOREIGN KEY ("granted_tier_id") REFERENCES "public"."subscription_tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "characters_user_idx" ON "characters" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "characters_party_idx" ON "characters" USING btree ("party_id");--> statement-breakpoint
CREATE INDEX "containers_character_idx" ON "containers" USING btree ("character_id");--> statement-breakpoint
CREATE INDEX "containers_party_idx" ON "containers" USING btree ("party_id");--> statement-breakpoint
CREATE INDEX "transactions_party_date_idx" ON "transactions" USING btree ("party_id","transaction_date");--> statement-breakpoint
CREATE INDEX "transactions_character_date_idx" ON "transactions" USING btree ("character_id","transaction_date");--> statement-breakpoint
CREATE INDEX "transactions_actor_date_idx" ON "transactions" USING btree ("actor_id","transaction_date");--> statement-breakpoint
CREATE UNIQUE INDEX "parties_join_code_idx" ON "parties" USING btree ("join_code");--> statement-breakpoint
CREATE INDEX "parties_gm_idx" ON "parties" USING btree ("game_master_id");--> statement-breakpoint
CREATE INDEX "parties_public_idx" ON "parties" USING btree ("is_public","is_archived");--> statement-breakpoint
CREATE INDEX "party_invitations_user_idx" ON "party_invitations" USING btree ("invited_user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "party_invitations_pending_idx" ON "party_invitations" USING btree ("party_id","invited_user_id") WHERE "party_invitations"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "party_memberships_party_user_idx" ON "party_memberships" USING btree ("party_id","user_id");--> statement-breakpoint
CREATE INDEX "party_memberships_user_idx" ON "party_memberships" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "patronages_patron_idx" ON "patronages" USING btree ("patron_id");--> statement-breakpoint
CREATE INDEX "patronages_beneficiary_idx" ON "patronages" USING btree ("beneficiary_id");--> statement-breakpoint
CREATE UNIQUE INDEX "patronages_active_idx" ON "patronages" USING btree ("party_id","beneficiary_id") WHERE "patronages"."active";