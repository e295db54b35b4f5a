import type { DeviceState } from '@lumigrid/protocol';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { instant, mayReferTo, refersTo, timestamps } from './columns.ts';
import { gateways } from './gateways.ts';
import { maps } from './projects.ts';
import { tenantRowKeys } from './tenant-columns.ts';
import { users } from './users.ts';

/**
 * Devices: what a gateway reported at import, where it is placed (map, or null while "outmap"), its type
 * code and last status string. Only the devices repo queries this table and device_states.
 */
export const devices = pgTable(
  'devices',
  {
    ...tenantRowKeys(),
    gatewayId: refersTo('gateway_id', () => gateways.id, 'cascade'),
    /** The bridge device it sits behind on a super gateway, or null. */
    bridgeId: mayReferTo('bridge_id', (): AnyPgColumn => devices.id, 'cascade'),
    /** The map it is placed on, or null while outside any map. */
    // NO ACTION, checked at the end of the statement, so deleting an account (maps and devices cascade) passes.
    mapId: mayReferTo('map_id', () => maps.id, 'no action'),
    /** Address on the gateway's network (upper-case hex, docs/protocol.md), unique per gateway. */
    addr: text('addr').notNull(),
    networkAddress: text('network_address').notNull().default(''),
    /** The protocol's device kind (light-cct, bridge, ...). */
    kind: text('kind').notNull(),
    /** Numeric device type code. */
    type: integer('type').notNull(),
    name: text('name').notNull(),
    model: text('model').notNull().default(''),
    firmware: text('firmware').notNull().default(''),
    /** The colon-separated status string of spec section 3; empty until the first report. */
    status: text('status').notNull().default(''),
    /** 0 normal, 2 offline. */
    typeStatus: smallint('type_status').notNull().default(0),
    /** Position on its map as fractions 0-1 of the floor plan's width and height; null while not placed. */
    x: doublePrecision('x'),
    y: doublePrecision('y'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('devices_gateway_addr_key').on(t.gatewayId, t.addr),
    index('devices_tenant_map_idx').on(t.tenantId, t.mapId),
    index('devices_tenant_gateway_idx').on(t.tenantId, t.gatewayId),
    index('devices_bridge_idx').on(t.bridgeId),
  ],
);

/** A device's state as one report carries it: kept current in device_states, appended to device_reports. */
export const reportedState = () => ({
  /** The protocol's device kind (light-cct, sensor-motion, ...). */
  kind: text('kind').notNull(),
  online: boolean('online').notNull(),
  /** Fault code of spec section 4, 0 normal. */
  fault: smallint('fault').notNull(),
  /** The device state exactly as reported (docs/protocol.md, up/report). */
  state: jsonb('state').$type<DeviceState>().notNull(),
  /** The report's own timestamp (gateway clock). */
  reportedAt: instant('reported_at').notNull(),
  /** When the server received the report (server clock). */
  receivedAt: instant('received_at').notNull(),
});

/**
 * The current state of every device a gateway reports (up/report), one row per gateway and address,
 * whether or not the device was imported (devices joins it on gateway_id + addr). The report writer upserts
 * it; a row is replaced only by a report the server received later, so a redelivered old report cannot
 * undo a newer state.
 */
export const deviceStates = pgTable(
  'device_states',
  {
    gatewayId: refersTo('gateway_id', () => gateways.id, 'cascade'),
    /** Device address on the gateway's network (upper-case hex, as the protocol carries it). */
    addr: text('addr').notNull(),
    /** The account the gateway was bound to when it reported; null while the gateway is in the pool. */
    tenantId: mayReferTo('tenant_id', () => users.id, 'cascade'),
    // received_at orders competing writes.
    ...reportedState(),
    /**
     * Change-only history: a 48-bit digest of the state of the device's last history row, and when it was
     * received (server clock); null until the history takes one. Every node decides against these, under the row's lock.
     */
    historyDigest: bigint('history_digest', { mode: 'number' }),
    historyAt: instant('history_at'),
  },
  (t) => [primaryKey({ columns: [t.gatewayId, t.addr] })],
);
