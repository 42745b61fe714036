CREATE TABLE "loot_template_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loot_template_id" uuid NOT NULL,
	"item_template_id" uuid NOT NULL,
	"quantity" bigint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loot_template_items_quantity_check" CHECK ("loot_template_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "loot_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"party_id" uuid NOT NULL,
	"loot_template_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"source_type" text DEFAULT 'custom' NOT NULL,
	"instance_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_revealed" boolean DEFAULT false NOT NULL,
	"revealed_at" timestamp with time zone,
	"distributed_at" timestamp with time zone,
	"distribution_mode" text,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loot_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"source_type" text DEFAULT 'custom' NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"creator_id" uuid,
	"system_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "containers" DROP CONSTRAINT "containers_one_owner";--> statement-breakpoint
ALTER TABLE "containers" ADD COLUMN "loot_instance_id" uuid;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "loot_instance_id" uuid;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "gm_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "loot_template_items" ADD CONSTRAINT "loot_template_items_loot_template_id_loot_templates_id_fk" FOREIGN KEY ("loot_template_id") REFERENCES "public"."loot_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loot_template_items" ADD CONSTRAINT "loot_template_items_item_template_id_item_templates_id_fk" FOREIGN KEY ("item_template_id") REFERENCES "public"."item_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loot_instances" ADD CONSTRAINT "loot_instances_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loot_instances" ADD CONSTRAINT "loot_instances_loot_template_id_loot_templates_id_fk" FOREIGN KEY ("loot_template_id") REFERENCES "public"."loot_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loot_instances" ADD CONSTRAINT "loot_instances_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loot_templates" ADD CONSTRAINT "loot_templates_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loot_template_items_template_item_idx" ON "loot_template_items" USING btree ("loot_template_id","item_template_id");--> statement-breakpoint
CREATE INDEX "loot_template_items_item_idx" ON "loot_template_items" USING btree ("item_template_id");--> statement-breakpoint
CREATE INDEX "loot_instances_party_idx" ON "loot_instances" USING btree ("party_id");--> statement-breakpoint
CREATE INDEX "loot_instances_template_idx" ON "loot_instances" USING btree ("loot_template_id");--> statement-breakpoint
CREATE INDEX "loot_instances_creator_idx" ON "loot_instances" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "loot_templates_system_key_idx" ON "loot_templates" USING btree ("system_key");--> statement-breakpoint
CREATE INDEX "loot_templates_creator_idx" ON "loot_templates" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "loot_templates_visibility_idx" ON "loot_templates" USING btree ("visibility");--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_loot_instance_id_loot_instances_id_fk" FOREIGN KEY ("loot_instance_id") REFERENCES "public"."loot_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "containers_loot_instance_idx" ON "containers" USING btree ("loot_instance_id");--> statement-breakpoint
CREATE INDEX "transactions_loot_instance_idx" ON "transactions" USING btree ("loot_instance_id");--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_one_owner" CHECK (num_nonnulls("containers"."character_id", "containers"."party_id", "containers"."shop_instance_id", "containers"."loot_instance_id") = 1);