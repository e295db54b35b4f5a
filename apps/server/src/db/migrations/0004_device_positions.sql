ALTER TABLE "devices" ADD COLUMN "x" double precision;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "y" double precision;