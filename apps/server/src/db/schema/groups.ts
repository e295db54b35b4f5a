import { index, integer, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { linkTable, refersTo, timestamps } from './columns.ts';
import { devices } from './devices.ts';
import { gateways } from './gateways.ts';
import { maps } from './projects.ts';
import { tenantRowKeys } from './tenant-columns.ts';

/**
 * Groups (zones): devices of one gateway that answer one radio group number, so a group command is one
 * frame on the air (docs/decisions.md, "Groups live on one gateway"). `number` is the gateway-local group
 * number the cloud allocated; `memberVersion` is the gateway's configuration version that first carried the
 * current member list, so the cloud knows whether the gateway's own group table has it (synced version >=).
 */
export const groups = pgTable(
  'groups',
  {
    ...tenantRowKeys(),
    gatewayId: refersTo('gateway_id', () => gateways.id, 'cascade'),
    mapId: refersTo('map_id', () => maps.id, 'cascade'),
    name: text('name').notNull(),
    /** Group number on the gateway radio, unique per gateway (GROUP_LIMITS.number). */
    number: integer('number').notNull(),
    /** 1 a single-colour group (every member a single-colour light), 0 any other. */
    type: smallint('type').notNull().default(0),
    memberVersion: integer('member_version').notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('groups_gateway_number_key').on(t.gatewayId, t.number),
    uniqueIndex('groups_map_name_key').on(t.mapId, t.name),
    index('groups_tenant_map_idx').on(t.tenantId, t.mapId),
  ],
);

/** Which devices belong to which group; a device leaves every group when it is deleted. */
export const groupDevices = linkTable(
  'group_devices',
  { key: 'groupId', column: 'group_id', target: () => groups.id },
  { key: 'deviceId', column: 'device_id', target: () => devices.id },
);
