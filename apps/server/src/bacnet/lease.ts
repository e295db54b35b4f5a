import type { Db } from '../db/client.ts';
import { bacnetLeases } from '../db/schema/index.ts';
import { leaseRow, type Lease } from '../lifecycle/lease.ts';

export { keepLease, LEASE_DEFAULTS, type LeaseKeeper, type LeaseOptions } from '../lifecycle/lease.ts';

/** The lease of a project's BACnet device among server nodes (bacnet_leases). */
export function createLeaseRepo(db: Db) {
  return {
    /** One project's lease, for keepLease. */
    of(projectId: bigint): Lease {
      return leaseRow(db, bacnetLeases, { column: bacnetLeases.projectId, row: { projectId } });
    },
  };
}
export type LeaseRepo = ReturnType<typeof createLeaseRepo>;
