import type { ErrorCode } from '@lumigrid/contract';
import { isUniqueViolation } from '../db/errors.ts';

/** The one error a service throws; the error handler turns it into the envelope and the HTTP status. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    /** Extra detail appended to the localised message (a field name, a range). */
    readonly detail?: string,
    /** Seconds the caller should wait (sent as Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`business error ${code}${detail ? `: ${detail}` : ''}`);
  }
}

/** Runs a write whose row a unique index may refuse (a name taken), and answers that refusal as `code`. */
export async function duplicateAs<T>(code: ErrorCode, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(code);
    throw error;
  }
}
