import type { GatewayConfig, GatewayParams } from '@lumigrid/protocol';

type Schedule = GatewayConfig['schedules'][number];

const MINUTE = 60_000;

/** Local calendar fields of an instant in a time zone. */
function local(at: number, timeZone: string): { date: string; hhmm: string; weekday: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday ?? '');
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hhmm: `${parts.hour}:${parts.minute}`, weekday };
}

/**
 * Sunrise and sunset (epoch ms) on a UTC calendar date at a place, by NOAA's approximation (within a
 * minute or two away from the poles); undefined on polar days and nights.
 */
export function sunTimes(date: string, latitude: number, longitude: number): { sunrise: number; sunset: number } | undefined {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  const dayOfYear = Math.floor((midnight - Date.UTC(new Date(midnight).getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
  const rad = Math.PI / 180;
  const g = ((2 * Math.PI) / 365) * (dayOfYear - 1);
  const eqTime =
    229.18 * (0.000075 + 0.001868 * Math.cos(g) - 0.032077 * Math.sin(g) - 0.014615 * Math.cos(2 * g) - 0.040849 * Math.sin(2 * g));
  const decl =
    0.006918 -
    0.399912 * Math.cos(g) +
    0.070257 * Math.sin(g) -
    0.006758 * Math.cos(2 * g) +
    0.000907 * Math.sin(2 * g) -
    0.002697 * Math.cos(3 * g) +
    0.00148 * Math.sin(3 * g);
  const cosHa = Math.cos(90.833 * rad) / (Math.cos(latitude * rad) * Math.cos(decl)) - Math.tan(latitude * rad) * Math.tan(decl);
  if (cosHa < -1 || cosHa > 1) return undefined;
  const ha = Math.acos(cosHa) / rad;
  return {
    sunrise: midnight + (720 - 4 * (longitude + ha) - eqTime) * MINUTE,
    sunset: midnight + (720 - 4 * (longitude - ha) - eqTime) * MINUTE,
  };
}

function inRange(s: Schedule, date: string, holidays: ReadonlySet<string>): boolean {
  if (s.from && date < s.from) return false;
  if (s.to && date > s.to) return false;
  return !(s.skipHolidays && holidays.has(date));
}

/**
 * The schedules due in the simulated interval (from, to]: clock times by the minute in the gateway's time
 * zone, sunrise/sunset from its longitude and latitude (none without them). Looks back at most a day.
 */
export function dueSchedules(config: GatewayConfig, params: GatewayParams, from: number, to: number): Schedule[] {
  const timeZone = params.timezone ?? 'UTC';
  const holidays = new Set(config.holidays ?? []);
  const start = Math.max(from, to - 24 * 60 * MINUTE);
  const due = new Set<Schedule>();
  // Clock times: every minute boundary in the interval.
  for (let t = Math.floor(start / MINUTE) * MINUTE + MINUTE; t <= to; t += MINUTE) {
    const l = local(t, timeZone);
    for (const s of config.schedules) {
      if (s.at === 'sunrise' || s.at === 'sunset') continue;
      const [h, m] = s.at.split(':').map(Number) as [number, number];
      const shifted = h * 60 + m + (s.offsetMin ?? 0);
      const at = `${String(Math.floor((((shifted % 1440) + 1440) % 1440) / 60)).padStart(2, '0')}:${String((((shifted % 1440) + 1440) % 1440) % 60).padStart(2, '0')}`;
      if (at === l.hhmm && s.days.includes(l.weekday) && inRange(s, l.date, holidays)) due.add(s);
    }
  }
  // Sun times: the events of the UTC days the interval touches.
  if (params.latitude !== undefined && params.longitude !== undefined) {
    for (const s of config.schedules) {
      if (s.at !== 'sunrise' && s.at !== 'sunset') continue;
      for (let day = Math.floor(start / 86_400_000) - 1; day <= Math.floor(to / 86_400_000) + 1; day++) {
        const sun = sunTimes(new Date(day * 86_400_000).toISOString().slice(0, 10), params.latitude, params.longitude);
        if (!sun) continue;
        const at = sun[s.at] + (s.offsetMin ?? 0) * MINUTE;
        const l = local(at, timeZone);
        if (at > start && at <= to && s.days.includes(l.weekday) && inRange(s, l.date, holidays)) due.add(s);
      }
    }
  }
  return [...due];
}
