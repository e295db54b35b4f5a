import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { identityId, instant, refersTo, unreferencedId } from './columns.ts';
import { users } from './users.ts';

/**
 * Webhook endpoints (contract webhooks.ts). The signing secret is kept as it is: the server must sign with it
 * (a hash would not do), and the code base has no key to encrypt it with; no answer or log carries it after its
 * creation (docs/decisions.md "Webhook secrets"). An endpoint hears what its maker sees, so it goes with that user.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: identityId(),
    tenantId: unreferencedId('tenant_id').notNull(),
    userId: refersTo('user_id', () => users.id, 'cascade'),
    name: text('name').notNull(),
    url: text('url').notNull(),
    /** The event kinds it is sent (contract WEBHOOK_EVENT_KINDS). */
    kinds: text('kinds').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Public name of the secret, sent in every delivery's lumigrid-key-id header. */
    keyId: text('key_id').notNull(),
    secret: text('secret').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [index('webhook_endpoints_tenant_idx').on(t.tenantId, t.createdAt)],
);

/** One event sent to one endpoint: the body kept as signed, so every attempt sends the same bytes and event id. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: identityId(),
    tenantId: unreferencedId('tenant_id').notNull(),
    endpointId: refersTo('endpoint_id', () => webhookEndpoints.id, 'cascade'),
    eventId: text('event_id').notNull(),
    kind: text('kind').notNull(),
    body: text('body').notNull(),
    /** contract WEBHOOK_DELIVERY_STATES. */
    state: text('state').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    answerCode: integer('answer_code'),
    answerExcerpt: text('answer_excerpt'),
    createdAt: instant('created_at').notNull(),
    lastAttemptAt: instant('last_attempt_at'),
    nextAttemptAt: instant('next_attempt_at'),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    uniqueIndex('webhook_deliveries_event_endpoint').on(t.eventId, t.endpointId),
  ],
);
