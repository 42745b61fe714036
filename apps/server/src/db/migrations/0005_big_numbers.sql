ALTER TABLE "transactions" ALTER COLUMN "quantity" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "amount_cp" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "item_instances" ALTER COLUMN "quantity" SET DATA TYPE bigint;