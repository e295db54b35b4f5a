import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, lt, or } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { serverLeases } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';

/** One lease among server nodes, whatever table keeps it. */
export interface Lease {
  /** Takes the lease when nobody holds it, it expired, or `holder` has it (then renews it); answers whether `holder` holds it now. */
  take(q: { holder: string; now: Date; until: Date }): Promise<boolean>;
  /** Gives the lease up, if `holder` has it, so another node takes over at its next try. */
  release(q: { holder: string }): Promise<void>;
}

/** A node's name in leases: host/pid/random, as the job runner names nodes. */
export function nodeName(): string {
  return `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`;
}

/** A table whose rows are leases: a key naming what each is for, the node holding it, and until when. */
type LeaseTable = PgTable & { holder: PgColumn; expiresAt: PgColumn };

/** The lease kept in one row of a lease table: `key.row` holds the key column's property alone (`{ name }`). */
export function leaseRow<T extends LeaseTable>(db: Db, table: T, key: { column: PgColumn; row: Partial<T['$inferInsert']> }): Lease {
  const [keyValue] = Object.values(key.row);
  return {
    async take(q) {
      const held = { holder: q.holder, expiresAt: q.until };
      const rows = await db
        .insert(table)
        .values({ ...key.row, ...held } as T['$inferInsert'])
        .onConflictDoUpdate({
          target: key.column,
          set: held as PgUpdateSetSource<T>,
          setWhere: or(eq(table.holder, q.holder), lt(table.expiresAt, q.now)),
        })
        .returning({ holder: table.holder });
      return rows.length > 0;
    },
    async release(q) {
      await db.delete(table).where(and(eq(key.column, keyValue), eq(table.holder, q.holder)));
    },
  };
}

/** A lease of server_leases by its name (work one node does for all, such as the alarm engine). */
export function serverLease(db: Db, name: string): Lease {
  return leaseRow(db, serverLeases, { column: serverLeases.name, row: { name } });
}

export interface LeaseOptions {
  /** How long a lease lasts unrenewed: a node that stops is replaced within it. */
  leaseMs: number;
  /** How often the holder renews and the others try. */
  tryMs: number;
}

export const LEASE_DEFAULTS: LeaseOptions = { leaseMs: 15_000, tryMs: 5_000 };

/**
 * Keeps trying to hold a lease: `onHeld` runs when this node takes it, `onLost` when a renewal fails or finds
 * another holder (the database was away longer than the lease). `stop` releases it.
 */
export function keepLease(deps: {
  lease: Lease;
  /** What the lease is for, in the log ("BACnet", "alarm engine"). */
  what: string;
  holder: string;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  options: LeaseOptions;
  onHeld: () => Promise<void>;
  onLost: () => Promise<void> | void;
}) {
  const { lease, holder, clock, options, what } = deps;
  let held = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function attempt() {
    const now = clock.now();
    let holds = false;
    try {
      holds = await lease.take({ holder, now, until: new Date(now.getTime() + options.leaseMs) });
    } catch (err) {
      deps.logger.warn({ err }, `${what} lease not renewed`);
    }
    if (stopped) return;
    if (holds && !held) {
      held = true;
      deps.logger.info({ holder }, `${what} lease taken: this node serves it`);
      await deps.onHeld().catch(async (err: unknown) => {
        deps.logger.warn({ err }, `${what} not started; the lease is given up`);
        held = false;
        await lease.release({ holder }).catch(() => undefined);
      });
    } else if (!holds && held) {
      held = false;
      deps.logger.warn({ holder }, `${what} lease lost: this node stops serving it`);
      await deps.onLost();
    }
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = attempt().finally(schedule);
    }, options.tryMs);
    timer.unref();
  }

  running = attempt().finally(schedule);

  return {
    /** Resolves after the current attempt (tests). */
    settled: () => running,
    isHeld: () => held,
    /** Runs an attempt now instead of at the next tick (tests). */
    tryNow: async () => {
      await running;
      running = attempt();
      await running;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      if (held) {
        held = false;
        await deps.onLost();
        await lease.release({ holder }).catch(() => undefined);
      }
    },
  };
}
export type LeaseKeeper = ReturnType<typeof keepLease>;
