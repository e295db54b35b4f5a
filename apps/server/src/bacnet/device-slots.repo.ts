import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { bacnetDevices } from '../db/schema/index.ts';

/** Two nodes allocating at once: the second's insert meets the unique index and reads again. */
const ATTEMPTS = 5;

/** The kept slot of each map's device, with one device per map (bacnet_devices). */
export function createDeviceSlotsRepo(db: Db) {
  async function kept(projectId: bigint): Promise<Map<string, number>> {
    const rows = await db.select().from(bacnetDevices).where(eq(bacnetDevices.projectId, projectId));
    return new Map(rows.map((r) => [String(r.mapId), r.slot]));
  }

  return {
    /** Every map's slot: the kept one, or for a map met for the first time the next never given (0 upwards). */
    async ensure(projectId: bigint, mapIds: readonly string[]): Promise<Map<string, number>> {
      for (let attempt = 1; ; attempt++) {
        const slots = await kept(projectId);
        const missing = mapIds.filter((id) => !slots.has(id));
        if (missing.length === 0) return slots;
        let next = Math.max(-1, ...slots.values()) + 1;
        const rows = missing.map((mapId) => ({ projectId, mapId: BigInt(mapId), slot: next++ }));
        try {
          await db
            .insert(bacnetDevices)
            .values(rows)
            .onConflictDoNothing({ target: [bacnetDevices.projectId, bacnetDevices.mapId] });
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= ATTEMPTS) throw error;
        }
      }
    },
  };
}
