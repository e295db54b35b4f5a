ALTER TABLE "gateways" ADD COLUMN "plan_x" double precision;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "plan_y" double precision;