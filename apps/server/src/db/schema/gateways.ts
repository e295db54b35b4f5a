import type { GatewayInfo } from '@lumigrid/protocol';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { identityId, instant, mayReferTo, timestamps } from './columns.ts';
import { maps } from './projects.ts';
import { users } from './users.ts';

/**
 * Gateways. A row exists from provisioning on (MAC + MQTT password hash): with no tenant the gateway is in
 * the pool and any account may bind it by MAC; unbinding returns it there. The MAC is unique across all
 * accounts. `configVersion` is the version of the cloud's configuration for the gateway (raised by every
 * change), `syncedVersion` the one the gateway last acknowledged; they differ while it is not synced.
 */
export const gateways = pgTable(
  'gateways',
  {
    id: identityId(),
    /** Twelve upper-case hex digits: the MQTT username and topic segment. */
    mac: text('mac').notNull(),
    /** The owning account, or null while the gateway is in the pool. */
    tenantId: mayReferTo('tenant_id', () => users.id, 'set null'),
    /** The map it is bound to; null exactly when tenantId is null (a map holding gateways cannot be deleted: 280005). */
    mapId: mayReferTo('map_id', () => maps.id, 'set null'),
    name: text('name').notNull().default(''),
    /** Argon2 hash of the gateway's MQTT password; null refuses every connection. */
    passwordHash: text('password_hash'),
    longitude: doublePrecision('longitude'),
    latitude: doublePrecision('latitude'),
    /** Where it is drawn on its map's floor plan (fractions 0-1 from the top-left), or null while not placed. */
    planX: doublePrecision('plan_x'),
    planY: doublePrecision('plan_y'),
    timezone: text('timezone'),
    reportIntervalS: integer('report_interval_s'),
    sensorMode: text('sensor_mode'),
    /** What the gateway said about itself in its last online state (spec section 3 fields). */
    info: jsonb('info').$type<GatewayInfo>(),
    superGateway: boolean('super_gateway').notNull().default(false),
    online: boolean('online').notNull().default(false),
    /** Why it went offline last: lost, restart, update, shutdown. */
    offlineReason: text('offline_reason'),
    lastSeenAt: instant('last_seen_at'),
    configVersion: integer('config_version').notNull().default(1),
    syncedVersion: integer('synced_version').notNull().default(0),
    /** SYNC_STATUS of the contract: 1 not synced, 2 syncing, 3 synced, 4 failed. */
    syncStatus: smallint('sync_status').notNull().default(1),
    boundAt: instant('bound_at'),
    /** The running or last firmware update, kept here so every server node sees the same progress. */
    fwUpdateId: text('fw_update_id'),
    /** gateway, zigbee, zigbee2, zigbee3, wisun or plc. */
    fwTarget: text('fw_target'),
    fwVersion: text('fw_version'),
    /** requested, downloading, installing, rebooting or done. */
    fwStage: text('fw_stage'),
    fwProgress: smallint('fw_progress').notNull().default(0),
    /** Null while running, 1 success, 2 failure, 3 timeout. */
    fwResult: smallint('fw_result'),
    fwStartedAt: instant('fw_started_at'),
    /** After this instant with no result the update has timed out. */
    fwDeadlineAt: instant('fw_deadline_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('gateways_mac_key').on(t.mac), index('gateways_tenant_map_idx').on(t.tenantId, t.mapId)],
);
