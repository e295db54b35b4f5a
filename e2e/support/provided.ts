// What the journeys' global setup hands every file (vitest's provide and inject).
declare module 'vitest' {
  export interface ProvidedContext {
    /** A data folder whose embedded database is migrated (global-setup.ts): each server starts from a copy of it. */
    migratedDataDir: string;
    /**
     * A migrated PostgreSQL database each server's own is copied from, when the journeys keep their data in
     * PostgreSQL (server.ts ServerStore); the copies' names begin with its name.
     */
    postgresTemplate?: string;
    /**
     * An empty folder of the run where the first file that needs the demo site after its first start makes it
     * (demo-site.ts seededDemoStore), for the others to copy.
     */
    demoSeedDir: string;
    /** The run's Chromium (global-setup.ts): each file connects to it and opens a context of its own. */
    browserEndpoint: string;
  }
}

export {};
