import { count, desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { outbox } from '../../db/schema/index.ts';

export type OutboxRow = typeof outbox.$inferSelect;

export function createOutboxRepo(db: Db) {
  return {
    async insert(values: { channel: 'mail' | 'sms'; recipient: string; subject: string; body: string }) {
      await db.insert(outbox).values(values);
    },

    async page({ offset, limit }: { offset: number; limit: number }): Promise<{ total: number; rows: OutboxRow[] }> {
      const [totalRow] = await db.select({ n: count() }).from(outbox);
      const rows = await db.select().from(outbox).orderBy(desc(outbox.id)).offset(offset).limit(limit);
      return { total: totalRow?.n ?? 0, rows };
    },
  };
}

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;
