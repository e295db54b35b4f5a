import { RATED_POWER_W, isTimeZone, wallClock, type DeviceKind, type DeviceState, type TelemetrySample } from '@lumigrid/protocol';
import type { SimDevice } from './devices.ts';

/** What a metered device draws when off or on the network only (below the server's 0.5 W "on" threshold). */
export const STANDBY_POWER_W = 0.3;
/** The load behind each channel of a switch (a luminaire or two), W. */
export const SWITCH_CHANNEL_LOAD_W = 20;
/** Default counter resets per device and simulated day: a reboot or a replaced driver, about every 100 days. */
export const DEFAULT_COUNTER_RESET_RATE = 0.01;
const MAINS_V = 230;
const DAY_MS = 24 * 3_600_000;

/** Devices with a power meter and an energy counter: lights and switches. */
export function isMetered(kind: DeviceKind): boolean {
  return RATED_POWER_W[kind] !== undefined || kind.startsWith('switch-');
}

/** Power drawn in a state, W: brightness times rated power for a light that is on, each switched channel's load. */
export function powerOf(state: Pick<DeviceState, 'kind' | 'online' | 'on' | 'level' | 'channels'>): number {
  // A device off the network is read as off the mains: nothing is measured.
  if (!state.online || !isMetered(state.kind)) return 0;
  if (state.channels) return STANDBY_POWER_W + state.channels.filter(Boolean).length * SWITCH_CHANNEL_LOAD_W;
  if (!state.on) return STANDBY_POWER_W;
  const full = RATED_POWER_W[state.kind] ?? 0;
  return Math.max(STANDBY_POWER_W, Math.round(full * ((state.level ?? 254) / 254) * 1000) / 1000);
}

/** Power the device draws now, W. */
export function powerW(device: SimDevice): number {
  return powerOf(device.state);
}

/**
 * Adds what the device drew over `hours` at `power` to its counter, which only grows; with the chance of
 * `resetRate` resets per simulated day the counter first starts again from 0 (the device rebooted), as a
 * real meter's does. Answers whether it was reset.
 */
export function advanceCounter(device: SimDevice, power: number, hours: number, resetRate: number, random: () => number): boolean {
  const reset = resetRate > 0 && random() < (resetRate * hours) / 24;
  if (reset) device.energyWh = 0;
  device.energyWh += power * hours;
  return reset;
}

/** The telemetry sample of a metered device drawing `power`, with its counter as it stands. */
export function meterSample(device: SimDevice, power: number): TelemetrySample {
  const sample: TelemetrySample = {
    addr: device.state.addr,
    power,
    energyWh: Math.round(device.energyWh * 1000) / 1000,
    voltage: MAINS_V,
    current: Math.round((power / MAINS_V) * 1000) / 1000,
  };
  // Emergency luminaires also report their battery.
  if (typeof device.state.battery === 'number') sample.battery = device.state.battery;
  return sample;
}

/** A local time as the daily pattern reads it. */
export interface LocalTime {
  /** YYYY-MM-DD. */
  date: string;
  /** 0 Sunday to 6 Saturday. */
  weekday: number;
  minute: number;
}

/** The wall-clock date, weekday and minute of the day of an instant in a time zone (UTC for one the runtime lacks). */
export function localTimeOf(at: number, timeZone: string): LocalTime {
  const local = new Date(wallClock(at, isTimeZone(timeZone) ? timeZone : 'UTC'));
  return { date: local.toISOString().slice(0, 10), weekday: local.getUTCDay(), minute: local.getUTCHours() * 60 + local.getUTCMinutes() };
}

/** A stable number in [0, 1) per key, so a device's day looks the same every time it is generated. */
function chance(...key: string[]): number {
  let hash = 0x811c9dc5;
  for (const ch of key.join('|')) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193);
  return (hash >>> 0) / 0x1_0000_0000;
}

/** Daylight through the windows, 0-1: none before 06:00 and after 20:00, most at 13:00. */
function daylight(minute: number): number {
  return Math.max(0, Math.sin((Math.PI * (minute - 360)) / (14 * 60)));
}

/**
 * What an office light or switch does at a local time, as the history backfill plays it: on in working hours
 * (each device starting and stopping at its own time every day), dimmed to a level of its own and further
 * while daylight comes in, off at night; most are off at weekends and some on a weekday off too. Emergency
 * lights are maintained: always on.
 */
export function officeUsage(device: SimDevice, at: LocalTime): Pick<DeviceState, 'on' | 'level' | 'channels'> {
  const { addr, kind } = device.state;
  if (kind === 'emergency' || kind === 'emergency-dimmable') return { on: true, level: kind === 'emergency' ? 254 : 200 };
  const weekend = at.weekday === 0 || at.weekday === 6;
  const working = weekend ? chance(addr, 'weekend') < 0.25 : chance(addr, at.date, 'away') >= 0.05;
  const start = (weekend ? 540 : 420) + Math.floor(chance(addr, at.date, 'start') * 90);
  const end = (weekend ? 900 : 1050) + Math.floor(chance(addr, at.date, 'end') * 120);
  const on = working && at.minute >= start && at.minute < end;
  const channels = device.state.channels;
  if (channels) {
    // Each circuit of a switch ends its day at its own time.
    return { channels: channels.map((_, i) => on && at.minute < end - Math.floor(chance(addr, at.date, `channel ${i}`) * 120)) };
  }
  if (!on) return { on: false, level: 0 };
  if (kind === 'light-single') return { on: true, level: 254 };
  const percent = (55 + chance(addr, at.date, 'level') * 35) * (1 - 0.4 * daylight(at.minute));
  return { on: true, level: Math.round((Math.max(10, percent) * 254) / 100) };
}

/** What the simulator itself integrated over one local day of a backfill. */
export interface BackfilledDay {
  /** YYYY-MM-DD in the gateway's time zone. */
  date: string;
  energyWh: number;
  /** What the devices' rated power over their on-time would have used more. */
  savedWh: number;
  /** Seconds metered devices were on (above standby). */
  onS: number;
}

export interface EnergyBackfill {
  /** The first and last sample time, epoch ms. */
  from: number;
  until: number;
  samples: number;
  messages: number;
  /** Counter resets it played. */
  resets: number;
  /** Energy per local day (of each interval's start), what the server's daily rollups should hold. */
  days: BackfilledDay[];
}

export interface EnergyBackfillOptions {
  /** How far back the history starts, days. */
  days: number;
  /** Minutes between samples (default 15). */
  stepMinutes?: number;
  /** The last sample's time (default now on the gateway's clock), rounded down to a step. */
  until?: number;
  /** Samples a second at most, so the server's ingest keeps up (default BACKFILL_SAMPLES_PER_SECOND). */
  samplesPerSecond?: number;
}

/**
 * The backfill's default pace per gateway. The server's ingest took about 16,000 samples a second on
 * PostgreSQL and 6,500 on PGlite (sharing its process with the simulator); faster only queues at the broker.
 */
export const BACKFILL_SAMPLES_PER_SECOND = 5000;

/** The sample times of a backfill: every step from `days` before `until` (rounded down to a step) to it. */
export function backfillTimes(options: EnergyBackfillOptions, now: number): { from: number; until: number; stepMs: number } {
  const stepMs = (options.stepMinutes ?? 15) * 60_000;
  if (!(stepMs >= 60_000) || !(options.days > 0)) throw new Error('a backfill needs days above 0 and a step of at least a minute');
  const until = Math.floor((options.until ?? now) / stepMs) * stepMs;
  return { from: until - Math.round((options.days * DAY_MS) / stepMs) * stepMs, until, stepMs };
}
