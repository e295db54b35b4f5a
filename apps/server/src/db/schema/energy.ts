import { date, doublePrecision, index, integer, pgTable, primaryKey, real, timestamp, unique } from 'drizzle-orm/pg-core';
import { instant, keyedBy, refersTo, unreferencedId } from './columns.ts';
import { devices } from './devices.ts';
import { tenantColumn } from './tenant-columns.ts';

/**
 * Every energy and power sample of an imported device, as the rollups took it (a duplicate or an older sample
 * than the device's last is in neither). Kept narrow on purpose (about 52 bytes a reading): no key, no foreign
 * key, only a BRIN index on the time, since reports read the rollups and this table is read by time range only
 * (audits, rebuilds, retention). On PostgreSQL and PGlite alike it is partitioned by month (the migration says
 * so by hand; the energy repo creates a month's partition before its first reading).
 */
export const energyReadings = pgTable(
  'energy_readings',
  {
    deviceId: unreferencedId('device_id').notNull(),
    /** The sample's own time (gateway clock, or the arrival time when that clock is impossible). */
    readAt: instant('read_at').notNull(),
    /** Energy counter, Wh; float4 keeps 7 digits, the exact value went into the rollups. */
    energyWh: real('energy_wh'),
    /** Active power, W. */
    powerW: real('power_w'),
  },
  (t) => [index('energy_readings_read_at_idx').using('brin', t.readAt)],
);

/**
 * Where each device's counter stood at its last reading: the next reading's delta starts here, and a sample
 * not newer than `readAt` is a duplicate or out of order and counts nowhere. Locked per batch, so two server
 * nodes never count the same interval.
 */
export const energyDeviceState = pgTable('energy_device_state', {
  deviceId: keyedBy('device_id', () => devices.id),
  /** The last reading taken (with a counter or not); null before the first. */
  readAt: instant('read_at'),
  /** The last counter value, Wh, and when it was read; null until a reading carries one. */
  counterWh: doublePrecision('counter_wh'),
  counterAt: instant('counter_at'),
});

/** The columns every energy rollup carries. */
const rollupValues = () => ({
  /** Energy used, Wh (counter deltas, spread evenly over the time between readings). */
  energyWh: doublePrecision('energy_wh').notNull().default(0),
  /** Rated power times the time the device was on, minus what it used; never negative per interval. */
  savedWh: doublePrecision('saved_wh').notNull().default(0),
  /** Seconds the device was on (average power above the standby threshold), summed over devices. */
  onS: integer('on_s').notNull().default(0),
});

/** Energy per device per UTC hour. */
export const energyDeviceHours = pgTable(
  'energy_device_hours',
  {
    deviceId: refersTo('device_id', () => devices.id, 'cascade'),
    tenantId: tenantColumn(),
    /** Start of the UTC hour. */
    hour: instant('hour').notNull(),
    ...rollupValues(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.hour] }), index('energy_device_hours_tenant_hour_idx').on(t.tenantId, t.hour)],
);

/**
 * Energy per map (the device's map when it was read; null for devices on no map) per local wall-clock hour, in
 * the time zone of the device's gateway (UTC when it has none): the day view's 24 bars. A wall-clock key keeps
 * half-hour zones and DST exact (docs/decisions.md, "Energy from counters"). No foreign key to the map: a
 * deleted map's energy stays in its account's totals.
 */
export const energyMapHours = pgTable(
  'energy_map_hours',
  {
    tenantId: tenantColumn(),
    mapId: unreferencedId('map_id'),
    /** Start of the local wall-clock hour. */
    localHour: timestamp('local_hour', { withTimezone: false }).notNull(),
    ...rollupValues(),
  },
  (t) => [unique('energy_map_hours_key').on(t.tenantId, t.mapId, t.localHour).nullsNotDistinct()],
);

/** Energy per map per local day (as energy_map_hours): a month report reads one row per map and day. */
export const energyMapDays = pgTable(
  'energy_map_days',
  {
    tenantId: tenantColumn(),
    mapId: unreferencedId('map_id'),
    localDate: date('local_date', { mode: 'string' }).notNull(),
    ...rollupValues(),
  },
  (t) => [unique('energy_map_days_key').on(t.tenantId, t.mapId, t.localDate).nullsNotDistinct()],
);
