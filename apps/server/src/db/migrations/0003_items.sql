CREATE TABLE "item_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"container_id" uuid NOT NULL,
	"item_template_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"instance_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"is_identified" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "item_instances_quantity_check" CHECK ("item_instances"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "item_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"weight" numeric(12, 4) DEFAULT 0 NOT NULL,
	"base_value" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'gp' NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"stack_size" integer DEFAULT 1 NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"rating" numeric(3, 2),
	"creator_id" uuid,
	"system_key" text,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "item_templates_stack_size_check" CHECK ("item_templates"."stack_size" >= 0),
	CONSTRAINT "item_templates_base_value_check" CHECK ("item_templates"."base_value" >= 0),
	CONSTRAINT "item_templates_weight_check" CHECK ("item_templates"."weight" >= 0)
);
--> statement-breakpoint
ALTER TABLE "item_instances" ADD CONSTRAINT "item_instances_container_id_containers_id_fk" FOREIGN KEY ("container_id") REFERENCES "public"."containers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_instances" ADD CONSTRAINT "item_instances_item_template_id_item_templates_id_fk" FOREIGN KEY ("item_template_id") REFERENCES "public"."item_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_templates" ADD CONSTRAINT "item_templates_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "item_instances_container_idx" ON "item_instances" USING btree ("container_id");--> statement-breakpoint
CREATE INDEX "item_instances_template_idx" ON "item_instances" USING btree ("item_template_id");--> statement-breakpoint
CREATE UNIQUE INDEX "item_templates_system_key_idx" ON "item_templates" USING btree ("system_key");--> statement-breakpoint
CREATE INDEX "item_templates_creator_idx" ON "item_templates" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "item_templates_visibility_idx" ON "item_templates" USING btree ("visibility");--> statement-breakpoint
CREATE INDEX "item_templates_search_idx" ON "item_templates" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "item_templates_tags_idx" ON "item_templates" USING gin ("tags");