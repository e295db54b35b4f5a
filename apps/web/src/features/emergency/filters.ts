import dayjs, { type Dayjs } from 'dayjs';

/** A day range of a search form as the emergency calls take it: the first day's start to the last day's end. */
export function dayRange(range: readonly [Dayjs | string, Dayjs | string] | undefined): { from?: string; to?: string } {
  if (!range?.[0] || !range[1]) return {};
  return { from: dayjs(range[0]).startOf('day').toISOString(), to: dayjs(range[1]).endOf('day').toISOString() };
}
