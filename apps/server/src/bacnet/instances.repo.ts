import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { bacnetObjects } from '../db/schema/index.ts';
import { instanceKey, type InstanceKey } from './object-model.ts';

/** Two nodes allocating at once: the second's insert meets the unique index and reads again. */
const ATTEMPTS = 5;

/** The kept instance numbers of a project's BACnet objects (bacnet_objects). */
export function createInstancesRepo(db: Db) {
  async function kept(projectId: bigint): Promise<Map<string, number>> {
    const rows = await db.select().from(bacnetObjects).where(eq(bacnetObjects.projectId, projectId));
    return new Map(
      rows.map((r) => [instanceKey({ source: r.source, sourceId: String(r.sourceId), objectType: r.objectType }), r.instance]),
    );
  }

  return {
    /**
     * The instance of every key: the kept one, or for a key met for the first time the next free instance of its
     * object type (1 upwards), stored before it is answered. Instances are never reused.
     */
    async ensure(projectId: bigint, keys: readonly InstanceKey[]): Promise<Map<string, number>> {
      for (let attempt = 1; ; attempt++) {
        const instances = await kept(projectId);
        const missing = keys.filter((k) => !instances.has(instanceKey(k)));
        if (missing.length === 0) return instances;
        const next = new Map<number, number>();
        for (const [key, instance] of instances) {
          const type = Number(key.split(':')[2]);
          next.set(type, Math.max(next.get(type) ?? 1, instance + 1));
        }
        const rows = missing.map((k) => {
          const instance = next.get(k.objectType) ?? 1;
          next.set(k.objectType, instance + 1);
          return { projectId, source: k.source, sourceId: BigInt(k.sourceId), objectType: k.objectType, instance };
        });
        try {
          await db
            .insert(bacnetObjects)
            .values(rows)
            .onConflictDoNothing({
              target: [bacnetObjects.projectId, bacnetObjects.source, bacnetObjects.sourceId, bacnetObjects.objectType],
            });
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= ATTEMPTS) throw error;
        }
      }
    },
  };
}
export type InstancesRepo = ReturnType<typeof createInstancesRepo>;
