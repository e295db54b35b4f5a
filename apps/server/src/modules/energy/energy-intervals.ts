import { isTimeZone, utcOffset } from '@lumigrid/protocol';

/** Below this average power a device is on standby: its time counts as off and earns no savings. */
export const STANDBY_POWER_W = 0.5;

const QUARTER_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A device's counter reading, as the rollups take it. */
export interface CounterReading {
  /** Epoch ms. */
  at: number;
  counterWh: number;
}

/** What one interval between two counter readings adds to one UTC hour and one local hour. */
export interface EnergyPiece {
  /** Start of the UTC hour, epoch ms. */
  hour: number;
  /** Start of the local wall-clock hour, as epoch ms of the same wall-clock time in UTC. */
  localHour: number;
  energyWh: number;
  savedWh: number;
  onS: number;
}

/**
 * Energy used between two readings of a device's counter. A counter that went down was reset (replaced driver,
 * power loss): it counts from 0 again, so the new value is what was used since.
 */
export function counterDelta(from: number, to: number): number {
  return to >= from ? to - from : to;
}

const offsets = new Map<string, number>();

/**
 * The zone's offset from UTC at `at` (a quarter-hour start), ms. Every zone's offset and every DST change falls
 * on a quarter hour, so one answer holds for the whole quarter; answers are remembered per quarter.
 */
export function zoneOffsetMs(timeZone: string, at: number): number {
  // A zone this runtime does not know is read as UTC rather than losing the energy.
  if (!isTimeZone(timeZone)) return 0;
  const key = `${timeZone}|${at}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  const offset = utcOffset(at, timeZone);
  if (offsets.size > 100_000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/**
 * Spreads the energy used between two counter readings evenly over the time between them, cut at every UTC
 * quarter hour (so both UTC hours and local hours of any zone, half- and quarter-hour ones included, get their
 * exact share). The interval is on when its average power is above standby; savings are the rated power over
 * that time minus what was used, never negative.
 */
export function spreadInterval(options: {
  from: CounterReading;
  to: CounterReading;
  ratedPowerW: number;
  timeZone: string;
}): EnergyPiece[] {
  const { from, to, ratedPowerW, timeZone } = options;
  const duration = to.at - from.at;
  if (duration <= 0) return [];
  const energyWh = counterDelta(from.counterWh, to.counterWh);
  const on = energyWh / (duration / HOUR_MS) > STANDBY_POWER_W;
  const savedWh = on ? Math.max(0, (ratedPowerW * duration) / HOUR_MS - energyWh) : 0;
  const pieces: EnergyPiece[] = [];
  for (let start = from.at; start < to.at;) {
    const quarter = Math.floor(start / QUARTER_MS) * QUARTER_MS;
    const end = Math.min(to.at, quarter + QUARTER_MS);
    const share = (end - start) / duration;
    const localQuarter = quarter + zoneOffsetMs(timeZone, quarter);
    pieces.push({
      hour: Math.floor(start / HOUR_MS) * HOUR_MS,
      localHour: Math.floor(localQuarter / HOUR_MS) * HOUR_MS,
      energyWh: energyWh * share,
      savedWh: savedWh * share,
      onS: on ? (end - start) / 1000 : 0,
    });
    start = end;
  }
  return pieces;
}

/** The local date (YYYY-MM-DD) of a local wall-clock hour as `EnergyPiece.localHour` gives it. */
export function localDateOf(localHour: number): string {
  return new Date(Math.floor(localHour / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/** A local wall-clock hour as PostgreSQL's `timestamp` (without time zone) reads it. */
export function localTimestampOf(localHour: number): string {
  return new Date(localHour).toISOString().slice(0, 19).replace('T', ' ');
}
