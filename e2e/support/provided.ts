// What the journeys' global setup hands every file (vitest's provide and inject).
declare module 'vitest' {
  export interface ProvidedContext {
    /** A data folder whose embedded database is migrated (global-setup.ts): each server starts from a copy of it. */
    migratedDataDir: string;
  }
}

export {};
