-- A sensor on no map has no linkage (310014; move_out and deletion drop it): linkages kept from before go,
-- and the gateways that ran them have a new configuration to receive.
WITH "dropped" AS (
	DELETE FROM "sensor_linkages" "l" USING "devices" "d"
	WHERE "d"."id" = "l"."sensor_id" AND "d"."map_id" IS NULL
	RETURNING "d"."gateway_id"
)
UPDATE "gateways" SET "config_version" = "config_version" + 1, "sync_status" = 1, "updated_at" = now()
WHERE "id" IN (SELECT "gateway_id" FROM "dropped");
