import { and, eq, or, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { bacnetLeases } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';

/** The lease of a project's BACnet device among server nodes (bacnet_leases). */
export function createLeaseRepo(db: Db) {
  return {
    /** Takes the lease when nobody holds it, it expired, or `holder` has it (then renews it); answers whether `holder` holds it now. */
    async take(q: { projectId: bigint; holder: string; now: Date; until: Date }): Promise<boolean> {
      const rows = await db
        .insert(bacnetLeases)
        .values({ projectId: q.projectId, holder: q.holder, expiresAt: q.until })
        .onConflictDoUpdate({
          target: bacnetLeases.projectId,
          set: { holder: q.holder, expiresAt: q.until },
          setWhere: or(eq(bacnetLeases.holder, q.holder), lt(bacnetLeases.expiresAt, q.now)),
        })
        .returning({ holder: bacnetLeases.holder });
      return rows.length > 0;
    },

    /** Gives the lease up, if `holder` has it, so another node takes over at its next try. */
    async release(q: { projectId: bigint; holder: string }): Promise<void> {
      await db.delete(bacnetLeases).where(and(eq(bacnetLeases.projectId, q.projectId), eq(bacnetLeases.holder, q.holder)));
    },
  };
}
export type LeaseRepo = ReturnType<typeof createLeaseRepo>;

export interface LeaseOptions {
  /** How long a lease lasts unrenewed: a node that stops is replaced within it. */
  leaseMs: number;
  /** How often the holder renews and the others try. */
  tryMs: number;
}

export const LEASE_DEFAULTS: LeaseOptions = { leaseMs: 15_000, tryMs: 5_000 };

/**
 * Keeps trying to hold a project's lease: `onHeld` runs when this node takes it, `onLost` when a renewal fails
 * or finds another holder (the database was away longer than the lease). `stop` releases it.
 */
export function keepLease(deps: {
  repo: LeaseRepo;
  projectId: bigint;
  holder: string;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  options: LeaseOptions;
  onHeld: () => Promise<void>;
  onLost: () => Promise<void> | void;
}) {
  const { repo, projectId, holder, clock, options } = deps;
  let held = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function attempt() {
    const now = clock.now();
    let holds = false;
    try {
      holds = await repo.take({ projectId, holder, now, until: new Date(now.getTime() + options.leaseMs) });
    } catch (err) {
      deps.logger.warn({ err }, 'BACnet lease not renewed');
    }
    if (stopped) return;
    if (holds && !held) {
      held = true;
      deps.logger.info({ projectId: String(projectId) }, 'BACnet lease taken: this node serves the device');
      await deps.onHeld().catch(async (err: unknown) => {
        deps.logger.warn({ err }, 'BACnet device not started; the lease is given up');
        held = false;
        await repo.release({ projectId, holder }).catch(() => undefined);
      });
    } else if (!holds && held) {
      held = false;
      deps.logger.warn({ projectId: String(projectId) }, 'BACnet lease lost: this node stops serving the device');
      await deps.onLost();
    }
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = attempt().finally(schedule);
    }, options.tryMs);
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
        await repo.release({ projectId, holder }).catch(() => undefined);
      }
    },
  };
}
export type LeaseKeeper = ReturnType<typeof keepLease>;
