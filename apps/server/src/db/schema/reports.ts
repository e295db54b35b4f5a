import { doublePrecision, index, jsonb, pgTable, primaryKey, real, text } from 'drizzle-orm/pg-core';
import { identityId, instant, mayReferTo, refersTo, unreferencedId } from './columns.ts';
import { users } from './users.ts';
import { reportedState } from './devices.ts';
import { gateways } from './gateways.ts';

/**
 * Reported device states, appended in arrival order: each change, and an unchanged state once per heartbeat
 * (HISTORY_HEARTBEAT_MINUTES), so a device's state at any time is its last row before it (QoS 1 is at-least-once:
 * a redelivered report can appear twice). Rows older than REPORT_HISTORY_DAYS are removed by a daily job. The id orders rows by when they became queryable, so readers can page after a known id.
 */
export const deviceReports = pgTable(
  'device_reports',
  {
    id: identityId(),
    gatewayId: refersTo('gateway_id', () => gateways.id, 'cascade'),
    /**
     * The account the gateway was bound to when it reported; null while the gateway is in the pool. No foreign
     * key: on an append-only history it would cost every insert a lookup and every account deletion a scan;
     * ids are never reused, so rows of a deleted account are unreachable until retention purges them.
     */
    tenantId: unreferencedId('tenant_id'),
    addr: text('addr').notNull(),
    ...reportedState(),
  },
  (t) => [
    index('device_reports_gateway_addr_idx').on(t.gatewayId, t.addr, t.reportedAt),
    // Rows arrive in time order, so a BRIN index (a few pages) finds the retention's old rows without a scan.
    index('device_reports_received_at_idx').using('brin', t.receivedAt),
  ],
);

/**
 * The last telemetry sample of every device a gateway reports (up/telemetry), one row per gateway and address.
 * The telemetry writer upserts it; a row is replaced only by a sample the server received later. Every
 * measurement is nullable: a device reports only what it measures.
 */
export const deviceTelemetry = pgTable(
  'device_telemetry',
  {
    gatewayId: refersTo('gateway_id', () => gateways.id, 'cascade'),
    /** Device address on the gateway's network (hex, upper case as reported). */
    addr: text('addr').notNull(),
    /** Active power, W. */
    power: real('power'),
    /** Supply voltage, V. */
    voltage: real('voltage'),
    /** Current, A. */
    current: real('current'),
    /** Energy counter, Wh (monotonic on the device). */
    energyWh: doublePrecision('energy_wh'),
    /** Battery charge, percent. */
    battery: real('battery'),
    /** Temperature, degrees Celsius. */
    temperature: real('temperature'),
    /** Illuminance, lux. */
    lux: real('lux'),
    /** The sample's own timestamp (gateway clock; the arrival time when that clock is impossible). */
    reportedAt: instant('reported_at').notNull(),
    /** When the server received it (server clock); orders competing writes. */
    receivedAt: instant('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.gatewayId, t.addr] })],
);

/**
 * What sensors and emergency lights told as events (up/event `sensor` and `emergency`), kept as they came for the
 * heatmap and the emergency tests: one row per event, the gateway's account at the time, the event's own fields.
 */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: identityId(),
    gatewayId: refersTo('gateway_id', () => gateways.id, 'cascade'),
    tenantId: mayReferTo('tenant_id', () => users.id, 'cascade'),
    addr: text('addr').notNull(),
    /** `sensor` or `emergency`. */
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    reportedAt: instant('reported_at').notNull(),
    receivedAt: instant('received_at').notNull(),
  },
  (t) => [
    index('device_events_device_time_idx').on(t.gatewayId, t.addr, t.reportedAt),
    index('device_events_tenant_type_time_idx').on(t.tenantId, t.type, t.reportedAt),
    index('device_events_received_at_idx').using('brin', t.receivedAt),
  ],
);
