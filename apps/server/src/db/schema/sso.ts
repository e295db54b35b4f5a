import { bigint, boolean, index, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { refersTo } from './columns.ts';
import { tenantColumn } from './tenant-columns.ts';
import { users } from './users.ts';

/**
 * Single sign-on of an account (contract sso.ts), one row per account. The client secret is kept as given,
 * because the server presents it to the provider; no answer or log line ever carries it.
 */
export const ssoSettings = pgTable(
  'sso_settings',
  {
    tenantId: bigint('tenant_id', { mode: 'bigint' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret').notNull(),
    claim: text('claim').notNull(),
    /** The e-mail domain whose users the sign-in page sends to this account's provider; one account per domain. */
    domain: text('domain').notNull(),
    defaultOperateAuth: smallint('default_operate_auth').notNull(),
    localSignInOff: boolean('local_sign_in_off').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('sso_settings_domain_key').on(t.domain)],
);

/**
 * Sign-ins started at a provider and not finished yet: found by the hash of their state, bound to the browser
 * that started them by the hash of its `lg_sso` cookie, used once.
 */
export const ssoFlows = pgTable(
  'sso_flows',
  {
    stateHash: text('state_hash').primaryKey(),
    tenantId: tenantColumn(),
    browserHash: text('browser_hash').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sso_flows_expires_idx').on(t.expiresAt)],
);

/** Which sub-account a value of the account's matching claim names, once it signed in through the provider. */
export const ssoLinks = pgTable(
  'sso_links',
  {
    tenantId: bigint('tenant_id', { mode: 'bigint' }).notNull(),
    claimValue: text('claim_value').notNull(),
    userId: refersTo('user_id', () => users.id, 'cascade'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.claimValue] })],
);
