CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_template_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shop_template_id" uuid NOT NULL,
	"item_template_id" uuid NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"price_cp" bigint,
	"restock_quantity" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_template_items_quantity_check" CHECK ("shop_template_items"."quantity" >= 0),
	CONSTRAINT "shop_template_items_price_check" CHECK ("shop_template_items"."price_cp" is null or "shop_template_items"."price_cp" >= 0),
	CONSTRAINT "shop_template_items_restock_check" CHECK ("shop_template_items"."restock_quantity" is null or "shop_template_items"."restock_quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "shop_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shop_instance_id" uuid NOT NULL,
	"party_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requester_id" uuid,
	"requester_name" text NOT NULL,
	"character_id" uuid,
	"character_name" text NOT NULL,
	"buyer_container_id" uuid,
	"payment_source" text DEFAULT 'character' NOT NULL,
	"payer_container_id" uuid,
	"hold_container_id" uuid,
	"item_template_id" uuid,
	"item_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cp" bigint NOT NULL,
	"total_price_cp" bigint NOT NULL,
	"decided_by_id" uuid,
	"decided_by_name" text,
	"reason" text DEFAULT '' NOT NULL,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_requests_quantity_check" CHECK ("shop_requests"."quantity" > 0),
	CONSTRAINT "shop_requests_price_check" CHECK ("shop_requests"."unit_price_cp" >= 0 and "shop_requests"."total_price_cp" >= 0)
);
--> statement-breakpoint
CREATE TABLE "shop_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"party_id" uuid NOT NULL,
	"shop_template_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"owner_name" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"shop_type" text DEFAULT 'general' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"discount_rate" numeric(5, 4) DEFAULT 0 NOT NULL,
	"buy_modifier" numeric(6, 4) DEFAULT 1 NOT NULL,
	"sell_modifier" numeric(6, 4) DEFAULT 0.5 NOT NULL,
	"currency" text DEFAULT 'gp' NOT NULL,
	"restock_days" integer,
	"next_restock_at" timestamp with time zone,
	"last_restock_at" timestamp with time zone,
	"restock_plan" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"prices" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"party_fund_allowed" boolean DEFAULT false NOT NULL,
	"approval_threshold_cp" bigint,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_instances_discount_check" CHECK ("shop_instances"."discount_rate" between 0 and 1),
	CONSTRAINT "shop_instances_modifiers_check" CHECK ("shop_instances"."buy_modifier" between 0 and 10 and "shop_instances"."sell_modifier" between 0 and 10),
	CONSTRAINT "shop_instances_restock_check" CHECK ("shop_instances"."restock_days" is null or "shop_instances"."restock_days" >= 0),
	CONSTRAINT "shop_instances_threshold_check" CHECK ("shop_instances"."approval_threshold_cp" is null or "shop_instances"."approval_threshold_cp" >= 0)
);
--> statement-breakpoint
CREATE TABLE "shop_template_ratings" (
	"shop_template_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"rating" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_template_ratings_shop_template_id_user_id_pk" PRIMARY KEY("shop_template_id","user_id"),
	CONSTRAINT "shop_template_ratings_range_check" CHECK ("shop_template_ratings"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "shop_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"owner_name" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"shop_type" text DEFAULT 'general' NOT NULL,
	"buy_modifier" numeric(6, 4) DEFAULT 1 NOT NULL,
	"sell_modifier" numeric(6, 4) DEFAULT 0.5 NOT NULL,
	"default_restock_days" integer,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"name_override" text,
	"owner_override" text,
	"location_override" text,
	"description_override" text,
	"creator_id" uuid,
	"system_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_templates_modifiers_check" CHECK ("shop_templates"."buy_modifier" between 0 and 10 and "shop_templates"."sell_modifier" between 0 and 10),
	CONSTRAINT "shop_templates_restock_check" CHECK ("shop_templates"."default_restock_days" is null or "shop_templates"."default_restock_days" >= 0)
);
--> statement-breakpoint
ALTER TABLE "containers" DROP CONSTRAINT "containers_one_owner";--> statement-breakpoint
ALTER TABLE "containers" ADD COLUMN "shop_instance_id" uuid;--> statement-breakpoint
ALTER TABLE "shop_template_items" ADD CONSTRAINT "shop_template_items_shop_template_id_shop_templates_id_fk" FOREIGN KEY ("shop_template_id") REFERENCES "public"."shop_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_template_items" ADD CONSTRAINT "shop_template_items_item_template_id_item_templates_id_fk" FOREIGN KEY ("item_template_id") REFERENCES "public"."item_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_requests" ADD CONSTRAINT "shop_requests_shop_instance_id_shop_instances_id_fk" FOREIGN KEY ("shop_instance_id") REFERENCES "public"."shop_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_requests" ADD CONSTRAINT "shop_requests_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_requests" ADD CONSTRAINT "shop_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_requests" ADD CONSTRAINT "shop_requests_character_id_characters_id_fk" FOREIGN KEY ("character_id") REFERENCES "public"."characters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_requests" ADD CONSTRAINT "shop_requests_buyer_container_id_containers_id_fk" FOREIGN KEY ("buyer_container_id") REFERENCES "public"."containers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_requests" ADD CONSTRAINT "shop_requests_payer_container_id_containers_id_fk" FOREIGN KEY ("payer_container_id") REFERENCES "public"."containers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_requests" ADD CONSTRAINT "shop_requests_hold_container_id_containers_id_fk" FOREIGN KEY ("hold_container_id") REFERENCES "public"."containers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_requests" ADD CONSTRAINT "shop_requests_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_instances" ADD CONSTRAINT "shop_instances_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_instances" ADD CONSTRAINT "shop_instances_shop_template_id_shop_templates_id_fk" FOREIGN KEY ("shop_template_id") REFERENCES "public"."shop_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_instances" ADD CONSTRAINT "shop_instances_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_template_ratings" ADD CONSTRAINT "shop_template_ratings_shop_template_id_shop_templates_id_fk" FOREIGN KEY ("shop_template_id") REFERENCES "public"."shop_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_template_ratings" ADD CONSTRAINT "shop_template_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_templates" ADD CONSTRAINT "shop_templates_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_key_idx" ON "jobs" USING btree ("key");--> statement-breakpoint
CREATE INDEX "jobs_run_at_idx" ON "jobs" USING btree ("run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_template_items_template_item_idx" ON "shop_template_items" USING btree ("shop_template_id","item_template_id");--> statement-breakpoint
CREATE INDEX "shop_template_items_item_idx" ON "shop_template_items" USING btree ("item_template_id");--> statement-breakpoint
CREATE INDEX "shop_requests_shop_status_idx" ON "shop_requests" USING btree ("shop_instance_id","status");--> statement-breakpoint
CREATE INDEX "shop_requests_party_idx" ON "shop_requests" USING btree ("party_id");--> statement-breakpoint
CREATE INDEX "shop_requests_requester_idx" ON "shop_requests" USING btree ("requester_id");--> statement-breakpoint
CREATE INDEX "shop_instances_party_idx" ON "shop_instances" USING btree ("party_id");--> statement-breakpoint
CREATE INDEX "shop_instances_template_idx" ON "shop_instances" USING btree ("shop_template_id");--> statement-breakpoint
CREATE INDEX "shop_instances_creator_idx" ON "shop_instances" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_templates_system_key_idx" ON "shop_templates" USING btree ("system_key");--> statement-breakpoint
CREATE INDEX "shop_templates_creator_idx" ON "shop_templates" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "shop_templates_visibility_idx" ON "shop_templates" USING btree ("visibility");--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_shop_instance_id_shop_instances_id_fk" FOREIGN KEY ("shop_instance_id") REFERENCES "public"."shop_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "containers_shop_instance_idx" ON "containers" USING btree ("shop_instance_id");--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_one_owner" CHECK (num_nonnulls("containers"."character_id", "containers"."party_id", "containers"."shop_instance_id") = 1);