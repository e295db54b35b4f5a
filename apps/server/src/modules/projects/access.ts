import { PROJECT_LIMITS, hasAtMostTwoDecimals } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';

/** A trimmed name that must not be empty (the schema has already capped its length). */
export function cleanName(value: string, field = 'name'): string {
  const name = value.trim();
  if (!name) throw new AppError(100001, field);
  return name;
}

/** An optional text: trimmed, with empty meaning "none". */
export function cleanOptional(value: string | undefined | null): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  return value.trim() || null;
}

/** Longitude and latitude carry at most two decimals (spec section 5). */
export function assertCoordinate(value: number | null | undefined) {
  if (value !== null && value !== undefined && !hasAtMostTwoDecimals(value)) throw new AppError(100017);
}

/** A carbon factor within spec section 5's range, when given. */
export function assertCarbonFactor(value: number | undefined) {
  const { min, max } = PROJECT_LIMITS.carbonFactor;
  if (value !== undefined && !(value >= min && value <= max)) throw new AppError(100020);
}
