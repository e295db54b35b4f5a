import { AppError } from '../http/app-error.ts';

export const DAY_MS = 86_400_000;

/**
 * A local date (YYYY-MM-DD, its shape already checked by the schema) as UTC midnight in epoch ms, so day
 * arithmetic never meets a daylight-saving shift; 100001 on `field` for a day that does not exist (2026-02-30).
 */
export function parseLocalDate(text: string, field: string): number {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const at = Date.UTC(y, m - 1, d);
  if (new Date(at).toISOString().slice(0, 10) !== text) throw new AppError(100001, field);
  return at;
}
