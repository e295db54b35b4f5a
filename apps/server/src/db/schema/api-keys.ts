import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { identityId, refersTo } from './columns.ts';
import { users } from './users.ts';

/**
 * API keys (contract api-keys.ts). Only the SHA-256 of the secret is kept: a database leak yields no usable key,
 * and the secret's 256 random bits leave nothing for a slow hash to protect. A key calls as the user who made
 * it, within its scope, so it goes with that user.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: identityId(),
    tenantId: bigint('tenant_id', { mode: 'bigint' }).notNull(),
    userId: refersTo('user_id', () => users.id, 'cascade'),
    name: text('name').notNull(),
    scope: text('scope').$type<'read' | 'control' | 'edit'>().notNull(),
    /** The projects the key is limited to (with their sub-projects); null for every project its user sees. */
    projectIds: bigint('project_ids', { mode: 'bigint' }).array(),
    secretHash: text('secret_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
    /** The rate limit's window: when the current minute began and the calls made in it, shared by every node. */
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }),
    windowCalls: integer('window_calls').notNull().default(0),
  },
  (t) => [index('api_keys_tenant_idx').on(t.tenantId, t.createdAt)],
);
