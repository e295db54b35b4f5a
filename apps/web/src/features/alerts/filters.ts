import dayjs from 'dayjs';
import type { AlertListBody, AlertState } from '@lumigrid/contract';

/** The fault list's search form as ProTable hands it over (selects as strings, the date range as days). */
export interface AlertSearchForm {
  code?: string | number;
  state?: AlertState;
  /** 'open' for faults that last, 'cleared' for those that ended. */
  open?: 'open' | 'cleared';
  raisedAt?: [string, string];
}

export type AlertFilters = Omit<AlertListBody, 'projectId' | 'page' | 'pageSize' | 'after'>;

/**
 * The page call's filters from the search form. The raised-at days are whole local days: from the start of the
 * first to the last moment of the second, sent as instants so the server compares them with `raisedAt`.
 */
export function alertFilters(form: AlertSearchForm): AlertFilters {
  const code = form.code === undefined || form.code === '' ? undefined : Number(form.code);
  const [fromDay, toDay] = form.raisedAt ?? [];
  return {
    ...(code !== undefined && Number.isInteger(code) ? { code } : {}),
    ...(form.state ? { state: form.state } : {}),
    ...(form.open ? { open: form.open === 'open' } : {}),
    ...(fromDay ? { from: dayjs(fromDay).startOf('day').toISOString() } : {}),
    ...(toDay ? { to: dayjs(toDay).endOf('day').toISOString() } : {}),
  };
}
