import type { ErrorCode } from '@lumigrid/contract';

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
