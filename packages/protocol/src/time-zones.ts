/** IANA time zones through Intl: the one place that reads a zone's wall clock and offset. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Whether the runtime knows an IANA time zone name. */
export function isTimeZone(timeZone: string): boolean {
  if (timeZone === '') return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The local wall-clock time of an instant, as epoch ms of the same fields read as UTC. */
export function wallClock(at: number, timeZone: string): number {
  const fields: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(at))) fields[part.type] = Number(part.value);
  return Date.UTC(fields.year!, fields.month! - 1, fields.day!, fields.hour!, fields.minute!, fields.second!);
}

/** The zone's offset from UTC at an instant, in ms (east positive). */
export function utcOffset(at: number, timeZone: string): number {
  const whole = Math.floor(at / 1000) * 1000;
  return wallClock(whole, timeZone) - whole;
}
