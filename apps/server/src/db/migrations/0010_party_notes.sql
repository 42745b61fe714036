ALTER TABLE "parties" ADD COLUMN "notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "parties" ADD COLUMN "notes_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "parties" ADD COLUMN "notes_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "parties" ADD COLUMN "notes_updated_by_id" uuid;--> statement-breakpoint
ALTER TABLE "parties" ADD CONSTRAINT "parties_notes_updated_by_id_users_id_fk" FOREIGN KEY ("notes_updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;