import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, identityId } from './columns.ts';

/** Mail and text messages kept instead of sent when no relay is configured (development, tests, demos). */
export const outbox = pgTable(
  'outbox',
  {
    id: identityId(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);
