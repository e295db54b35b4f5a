import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Mail and text messages kept instead of sent when no relay is configured (development, tests, demos). */
export const outbox = pgTable(
  'outbox',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);
