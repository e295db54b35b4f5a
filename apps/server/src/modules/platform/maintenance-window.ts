import type { MaintenanceWindow } from '@lumigrid/contract';
import { isTimeZone, wallClock } from '@lumigrid/protocol';

const DAY_MIN = 24 * 60;

function minutesOf(clock: string): number {
  const [h, m] = clock.split(':').map(Number);
  return h! * 60 + m!;
}

/** The minute of the day (0-1439) on the gateway's wall clock; a gateway without a known zone keeps UTC. */
function localMinute(at: Date, timeZone: string | null): number {
  const zone = timeZone && isTimeZone(timeZone) ? timeZone : 'UTC';
  return Math.floor(wallClock(at.getTime(), zone) / 60_000) % DAY_MIN;
}

/**
 * Minutes until the window opens for a gateway in `timeZone`: 0 while it is open. A window whose end is before
 * its start runs past midnight (22:00-04:00); no window means any time.
 */
export function minutesUntilWindow(window: MaintenanceWindow | null, timeZone: string | null, at: Date): number {
  if (!window) return 0;
  const now = localMinute(at, timeZone);
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  const open = start < end ? now >= start && now < end : now >= start || now < end;
  return open ? 0 : (start - now + DAY_MIN) % DAY_MIN;
}
