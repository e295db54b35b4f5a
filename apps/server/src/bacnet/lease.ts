import { and, eq, or, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { bacnetLeases } from '../db/schema/index.ts';
import type { Lease } from '../lifecycle/lease.ts';

export { keepLease, LEASE_DEFAULTS, type LeaseKeeper, type LeaseOptions } from '../lifecycle/lease.ts';

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

    /** One project's lease, for keepLease. */
    of(projectId: bigint): Lease {
      return { take: (q) => this.take({ ...q, projectId }), release: (q) => this.release({ ...q, projectId }) };
    },
  };
}
export type LeaseRepo = ReturnType<typeof createLeaseRepo>;
