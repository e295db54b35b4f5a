import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { identityId, instant, refersTo, unreferencedId } from './columns.ts';
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
    tenantId: unreferencedId('tenant_id').notNull(),
    userId: refersTo('user_id', () => users.id, 'cascade'),
    name: text('name').notNull(),
    scope: text('scope').$type<'read' | 'control' | 'edit'>().notNull(),
    /** The projects the key is limited to (with their sub-projects); null for every project its user sees. */
    projectIds: bigint('project_ids', { mode: 'bigint' }).array(),
    secretHash: text('secret_hash').notNull(),
    expiresAt: instant('expires_at').notNull(),
    createdAt: instant('created_at').notNull(),
    revokedAt: instant('revoked_at'),
    lastUsedAt: instant('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    /** The rate limit's window: when the current minute began and the calls made in it, shared by every node. */
    windowStartedAt: instant('window_started_at'),
    windowCalls: integer('window_calls').notNull().default(0),
  },
  (t) => [index('api_keys_tenant_idx').on(t.tenantId, t.createdAt)],
);
