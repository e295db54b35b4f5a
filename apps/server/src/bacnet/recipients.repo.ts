import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { bacnetRecipients } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';
import { destinationOf, storedDestination, type Destination, type StoredDestination } from './events.ts';

/** Where a device's Recipient_List is kept: its project and device instance. */
export interface RecipientsKey {
  projectId: bigint;
  deviceInstance: number;
}

/** The Recipient_Lists BMSs wrote (bacnet_recipients), read by whichever node serves the device. */
export function createRecipientsRepo(db: Db, clock: Clock) {
  const where = (k: RecipientsKey) =>
    and(eq(bacnetRecipients.projectId, k.projectId), eq(bacnetRecipients.deviceInstance, k.deviceInstance));
  return {
    async load(k: RecipientsKey): Promise<Destination[]> {
      const [row] = await db.select({ recipients: bacnetRecipients.recipients }).from(bacnetRecipients).where(where(k));
      return ((row?.recipients ?? []) as StoredDestination[]).map(destinationOf);
    },
    /** Replaces the list, as a WriteProperty of Recipient_List replaces it. */
    async save(k: RecipientsKey, list: readonly Destination[]): Promise<void> {
      const recipients = list.map(storedDestination);
      await db
        .insert(bacnetRecipients)
        .values({ ...k, recipients, updatedAt: clock.now() })
        .onConflictDoUpdate({
          target: [bacnetRecipients.projectId, bacnetRecipients.deviceInstance],
          set: { recipients, updatedAt: clock.now() },
        });
    },
  };
}
export type RecipientsRepo = ReturnType<typeof createRecipientsRepo>;
