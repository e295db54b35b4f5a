import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { mayReferTo } from './columns.ts';
import { devices } from './devices.ts';
import { gateways } from './gateways.ts';
import { tenantRowKeys } from './tenant-columns.ts';
import { users } from './users.ts';

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
    gatewayId: mayReferTo('gateway_id', () => gateways.id, 'set null'),
    /** Null for a gateway's own alert (offline). */
    deviceId: mayReferTo('device_id', () => devices.id, 'set null'),
    /** The device address on its gateway ('' for the gateway itself): with gatewayId, what the fault is on. */
    addr: text('addr').notNull(),
    code: smallint('code').notNull(),
    name: text('name').notNull(),
    deviceType: smallint('device_type'),
    gatewayName: text('gateway_name').notNull(),
    projectId: bigint('project_id', { mode: 'bigint' }),
    buildId: bigint('build_id', { mode: 'bigint' }),
    mapId: bigint('map_id', { mode: 'bigint' }),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull(),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    handledBy: mayReferTo('handled_by', () => users.id, 'set null'),
    handledByName: text('handled_by_name'),
    handledAt: timestamp('handled_at', { withTimezone: true }),
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
