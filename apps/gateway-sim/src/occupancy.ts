import { encodeUp, upTopic, type EventMessage } from '@lumigrid/protocol';
import type { MqttClient } from 'mqtt';
import { localTimeOf, type LocalTime } from './energy.ts';

/**
 * How a room is used over a working day: open offices fill from 08:00 to 18:00 with a dip at lunch, meeting
 * rooms peak at 10:00 and 14:00, corridors carry arrivals, lunch and departures (and the evening cleaners),
 * kitchens peak at coffee and lunch. Nights are empty; weekends nearly so.
 */
export type OccupancyProfile = 'office' | 'meeting' | 'corridor' | 'kitchen';

/** Chance, per local hour of a working day, that a sensor of the profile sees someone in a 10-minute slot. */
const WEEKDAY: Record<OccupancyProfile, readonly number[]> = {
  //        0  1  2  3  4  5  6     7     8     9     10    11    12    13    14    15    16    17    18    19    20    21 22 23
  office: [0, 0, 0, 0, 0, 0, 0.02, 0.15, 0.55, 0.8, 0.85, 0.8, 0.5, 0.65, 0.8, 0.8, 0.7, 0.45, 0.15, 0.05, 0.02, 0, 0, 0],
  meeting: [0, 0, 0, 0, 0, 0, 0, 0.02, 0.15, 0.55, 0.92, 0.55, 0.15, 0.3, 0.88, 0.6, 0.35, 0.12, 0.03, 0, 0, 0, 0, 0],
  corridor: [0, 0, 0, 0, 0, 0, 0.02, 0.15, 0.35, 0.2, 0.15, 0.15, 0.35, 0.25, 0.15, 0.15, 0.2, 0.3, 0.1, 0.05, 0.05, 0.01, 0, 0],
  kitchen: [0, 0, 0, 0, 0, 0, 0, 0.08, 0.5, 0.3, 0.35, 0.2, 0.8, 0.7, 0.2, 0.45, 0.2, 0.1, 0.02, 0, 0, 0, 0, 0],
};
/** Weekends: a few people come in. */
const WEEKEND_SHARE = 0.06;
/** The slot the daily pattern is stated for, in minutes. */
export const OCCUPANCY_SLOT_MINUTES = 10;

/** A stable number in [0, 1) per key: the same seed plays the same week. */
export function occupancyHash(...key: Array<string | number>): number {
  let hash = 0x811c9dc5;
  for (const ch of key.join('|')) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return (hash >>> 0) / 0x1_0000_0000;
}

/**
 * Chance that a motion sensor of the profile sees someone in one 10-minute slot at a local time. Each room has
 * busier and quieter days (`dayKey` picks the day's share, 70-130 %).
 */
export function occupancyChance(profile: OccupancyProfile, at: LocalTime, dayKey = ''): number {
  const base = WEEKDAY[profile][Math.floor(at.minute / 60)] ?? 0;
  const weekend = at.weekday === 0 || at.weekday === 6;
  const day = 0.7 + 0.6 * occupancyHash(dayKey, at.date);
  return Math.min(0.97, base * day * (weekend ? WEEKEND_SHARE : 1));
}

/** The same chance over an interval of `seconds` (the live simulator's activity interval). */
export function occupancyChanceOver(profile: OccupancyProfile, at: LocalTime, seconds: number, dayKey = ''): number {
  const slot = occupancyChance(profile, at, dayKey);
  return 1 - Math.pow(1 - slot, seconds / (OCCUPANCY_SLOT_MINUTES * 60));
}

/** A motion event as the simulator sent it. */
export interface OccupancyEvent {
  addr: string;
  ts: number;
  /** 1 occupied, 0 cleared. */
  value: 0 | 1;
}

export interface OccupancyBackfillOptions {
  /** How far back the history starts, days. */
  days: number;
  /** The history's end (default now on the gateway's clock). */
  until?: number;
  /** Events a second at most, so the server's ingest keeps up (default 2000). */
  eventsPerSecond?: number;
}

export interface OccupancyBackfill {
  from: number;
  until: number;
  /** Every event sent, in time order per sensor: what the server should have counted. */
  events: OccupancyEvent[];
}

/**
 * A history of occupancy for motion sensors: in every 10-minute slot, with the profile's chance, someone walks
 * in; the sensor reports occupied at a moment of the slot and cleared one to five minutes later (its hold
 * time), so busy rooms report often and every report stands for real presence. Deterministic per seed.
 */
export function planOccupancy(input: {
  sensors: ReadonlyArray<{ addr: string; profile: OccupancyProfile }>;
  from: number;
  until: number;
  timeZone: string;
  seed: string;
}): OccupancyEvent[] {
  const slotMs = OCCUPANCY_SLOT_MINUTES * 60_000;
  const events: OccupancyEvent[] = [];
  for (const { addr, profile } of input.sensors) {
    for (let at = Math.ceil(input.from / slotMs) * slotMs; at + slotMs <= input.until; at += slotMs) {
      const local = localTimeOf(at, input.timeZone);
      if (occupancyHash(input.seed, addr, at, 'walk-in') >= occupancyChance(profile, local, `${input.seed}|${addr}`)) continue;
      const occupied = at + Math.floor(occupancyHash(input.seed, addr, at, 'when') * 4 * 60_000);
      const cleared = occupied + 60_000 + Math.floor(occupancyHash(input.seed, addr, at, 'hold') * 4 * 60_000);
      events.push({ addr, ts: occupied, value: 1 }, { addr, ts: cleared, value: 0 });
    }
  }
  return events.sort((a, b) => a.ts - b.ts);
}

/**
 * Backfill messages awaiting the broker's PUBACK at once: events are small, so many in flight keep a broker
 * that shares its process with a busy database (the demo on PGlite) from pacing them by round trips.
 */
const WINDOW = 256;

/**
 * Sends planned motion events as up/event `sensor` messages with their past times, a window at a time and at
 * most `eventsPerSecond`; stops with an error when `alive` turns false (the gateway went offline).
 */
export async function sendOccupancy(input: {
  client: MqttClient;
  mac: string;
  events: readonly OccupancyEvent[];
  eventsPerSecond?: number;
  alive: () => boolean;
}): Promise<void> {
  const pace = input.eventsPerSecond ?? 2000;
  const inFlight = new Set<Promise<void>>();
  let failure: Error | undefined;
  const startedAt = Date.now();
  for (const [i, event] of input.events.entries()) {
    if (failure) throw failure;
    if (!input.alive()) throw new Error(`gateway ${input.mac} went offline during the occupancy backfill`);
    const message: EventMessage = { type: 'sensor', ts: event.ts, addr: event.addr, sensor: 'motion', value: event.value };
    const sent: Promise<void> = input.client.publishAsync(upTopic(input.mac, 'event'), encodeUp('event', message), { qos: 1 }).then(
      () => void inFlight.delete(sent),
      (error: Error) => {
        failure ??= error;
        inFlight.delete(sent);
      },
    );
    inFlight.add(sent);
    if (inFlight.size >= WINDOW) await Promise.race(inFlight);
    const due = startedAt + ((i + 1) / pace) * 1000;
    if (due > Date.now()) await new Promise((wake) => setTimeout(wake, due - Date.now()));
  }
  await Promise.all(inFlight);
  if (failure) throw failure;
}

/** The activations a server should count from events: distinct (sensor, 30-minute window) of occupied reports. */
export function activationWindows(events: readonly OccupancyEvent[], windowMinutes = 30): Map<string, number> {
  const windowMs = windowMinutes * 60_000;
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.value !== 1) continue;
    const key = `${e.addr}|${Math.floor(e.ts / windowMs)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    counts.set(e.addr, (counts.get(e.addr) ?? 0) + 1);
  }
  return counts;
}
