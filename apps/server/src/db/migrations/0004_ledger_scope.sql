ALTER TABLE "transactions" ADD COLUMN "scope" text;--> statement-breakpoint
CREATE INDEX "transactions_source_idx" ON "transactions" USING btree ("source_container_id");--> statement-breakpoint
CREATE INDEX "transactions_destination_idx" ON "transactions" USING btree ("destination_container_id");