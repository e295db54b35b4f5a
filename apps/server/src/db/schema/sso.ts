import { boolean, index, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, keyedBy, refersTo, unreferencedId } from './columns.ts';
import { tenantColumn } from './tenant-columns.ts';
import { users } from './users.ts';

/**
 * Single sign-on of an account (contract sso.ts), one row per account. The client secret is kept as given,
 * because the server presents it to the provider; no answer or log line ever carries it.
 */
export const ssoSettings = pgTable(
  'sso_settings',
  {
    tenantId: keyedBy('tenant_id', () => users.id),
    enabled: boolean('enabled').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret').notNull(),
    claim: text('claim').notNull(),
    /** The e-mail domain whose users the sign-in page sends to this account's provider; one account per domain. */
    domain: text('domain').notNull(),
    defaultOperateAuth: smallint('default_operate_auth').notNull(),
    localSignInOff: boolean('local_sign_in_off').notNull(),
    updatedAt: instant('updated_at').notNull(),
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
    expiresAt: instant('expires_at').notNull(),
  },
  (t) => [index('sso_flows_expires_idx').on(t.expiresAt)],
);

/** Which sub-account a value of the account's matching claim names, once it signed in through the provider. */
export const ssoLinks = pgTable(
  'sso_links',
  {
    tenantId: unreferencedId('tenant_id').notNull(),
    claimValue: text('claim_value').notNull(),
    userId: refersTo('user_id', () => users.id, 'cascade'),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.claimValue] })],
);
