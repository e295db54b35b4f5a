/** Postgres error codes, read through Drizzle's wrapper on both drivers (PGlite, node-postgres). */
function pgError(error: unknown): { code: string; constraint?: string } | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique index refused the row (a duplicate name, a taken e-mail). */
export const isUniqueViolation = (error: unknown) => pgError(error)?.code === '23505';
/** A foreign key refused the change (a child row appeared meanwhile). */
export const isForeignKeyViolation = (error: unknown) => pgError(error)?.code === '23503';
/** The constraint a refused row broke, when the driver names it. */
export const violatedConstraint = (error: unknown) => pgError(error)?.constraint;
/** PostgreSQL ended the transaction in a conflict with another (a deadlock, a serialization failure): worth trying again. */
export const isTransactionConflict = (error: unknown) => ['40P01', '40001'].includes(pgError(error)?.code ?? '');
