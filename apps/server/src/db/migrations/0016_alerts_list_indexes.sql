DROP INDEX "alerts_tenant_raised_idx";--> statement-breakpoint
DROP INDEX "alerts_tenant_map_idx";--> statement-breakpoint
CREATE INDEX "alerts_tenant_project_idx" ON "alerts" USING btree ("tenant_id","project_id","raised_at","id");--> statement-breakpoint
CREATE INDEX "alerts_tenant_code_idx" ON "alerts" USING btree ("tenant_id","code","raised_at","id");--> statement-breakpoint
CREATE INDEX "alerts_tenant_open_idx" ON "alerts" USING btree ("tenant_id","raised_at","id") WHERE "alerts"."cleared_at" IS NULL;--> statement-breakpoint
CREATE INDEX "alerts_tenant_pending_idx" ON "alerts" USING btree ("tenant_id","raised_at","id") WHERE "alerts"."handled_at" IS NULL;--> statement-breakpoint
CREATE INDEX "alerts_tenant_raised_idx" ON "alerts" USING btree ("tenant_id","raised_at","id");--> statement-breakpoint
CREATE INDEX "alerts_tenant_map_idx" ON "alerts" USING btree ("tenant_id","map_id","raised_at","id");