import { PROJECT_LIMITS, hasAtMostTwoDecimals } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';

const MAX_ID = 2n ** 63n - 1n;

/**
 * Parses an id from a request. An id beyond 64 bits cannot exist, so it answers "not your data" like any
 * other id the caller does not own, rather than reaching the database.
 */
export function toId(value: string): bigint {
  const id = BigInt(value);
  if (id < 1n || id > MAX_ID) throw new AppError(110011);
  return id;
}

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
