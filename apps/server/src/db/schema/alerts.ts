import { sql } from 'drizzle-orm';
import { index, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, mayReferTo, unreferencedId } from './columns.ts';
import { devices } from './devices.ts';
import { gateways } from './gateways.ts';
import { tenantRowKeys } from './tenant-columns.ts';
import { users } from './users.ts';

/**
 * What a fault is on and which fault it is: a gateway and a device address on it, with the fault code. The gateway
 * and the device may go; the row keeps the address and the names it copied.
 */
export const faultSource = () => ({
  gatewayId: mayReferTo('gateway_id', () => gateways.id, 'set null'),
  /** Null for a gateway's own fault (offline). */
  deviceId: mayReferTo('device_id', () => devices.id, 'set null'),
  /** The device address on its gateway ('' for the gateway itself). */
  addr: text('addr').notNull(),
  code: smallint('code').notNull(),
});

/**
 * Alerts: one fault of one device, or one gateway offline, from raised to cleared; pending until a person
 * marks it handled. A device or gateway has at most one open alert per code (the partial unique index), so a
 * redelivered report or a second server node never raises it twice. Names and places are kept as they were
 * when it was raised, so the record outlives the device.
 */
export const alerts = pgTable(
  'alerts',
  {
    ...tenantRowKeys(),
    ...faultSource(),
    name: text('name').notNull(),
    deviceType: smallint('device_type'),
    gatewayName: text('gateway_name').notNull(),
    projectId: unreferencedId('project_id'),
    buildId: unreferencedId('build_id'),
    mapId: unreferencedId('map_id'),
    raisedAt: instant('raised_at').notNull(),
    clearedAt: instant('cleared_at'),
    handledBy: mayReferTo('handled_by', () => users.id, 'set null'),
    handledByName: text('handled_by_name'),
    handledAt: instant('handled_at'),
    note: text('note').notNull().default(''),
  },
  (t) => [
    uniqueIndex('alerts_open_key')
      .on(t.gatewayId, t.addr, t.code)
      .where(sql`${t.clearedAt} IS NULL`),
    // The list, newest first, keyset-paged: (raised_at, id) within an account, read backwards. Ascending on
    // purpose: `order by raised_at desc, id desc` is NULLS FIRST, which an index built `desc` (drizzle makes it
    // DESC NULLS LAST) cannot give, and the planner then sorted the whole account. Each filter the list is
    // commonly narrowed by has its own, so a page and its (capped) count read only the rows they answer.
    index('alerts_tenant_raised_idx').on(t.tenantId, t.raisedAt, t.id),
    index('alerts_tenant_project_idx').on(t.tenantId, t.projectId, t.raisedAt, t.id),
    index('alerts_tenant_map_idx').on(t.tenantId, t.mapId, t.raisedAt, t.id),
    index('alerts_tenant_code_idx').on(t.tenantId, t.code, t.raisedAt, t.id),
    index('alerts_tenant_open_idx')
      .on(t.tenantId, t.raisedAt, t.id)
      .where(sql`${t.clearedAt} IS NULL`),
    index('alerts_tenant_pending_idx')
      .on(t.tenantId, t.raisedAt, t.id)
      .where(sql`${t.handledAt} IS NULL`),
    index('alerts_device_idx').on(t.deviceId),
  ],
);
