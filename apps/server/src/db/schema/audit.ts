import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { identityId, instant, unreferencedId } from './columns.ts';

/**
 * The audit trail: one row per recorded call of the API (contract isAudited), appended after its answer went
 * out. The database refuses UPDATE and DELETE (migration audit_trail); only audit_trail_purge, the retention
 * job's function, removes rows older than its cutoff. No foreign keys: entries outlive the users, accounts
 * and objects they name.
 */
export const auditTrail = pgTable(
  'audit_trail',
  {
    id: identityId(),
    at: instant('at').notNull(),
    /** The caller's account (tenant); null for a call nobody signed in made. */
    tenantId: unreferencedId('tenant_id'),
    userId: unreferencedId('user_id'),
    /** The caller's name when the call was made. */
    userName: text('user_name').notNull().default(''),
    actor: text('actor').$type<'admin' | 'account' | 'subAccount' | 'apiKey' | 'anonymous'>().notNull(),
    /** The API key the call was made with (its user is user_id); no foreign key, as for every column here. */
    apiKeyId: unreferencedId('api_key_id'),
    via: text('via').$type<'web' | 'api' | 'bacnet'>().notNull(),
    ip: text('ip').notNull().default(''),
    /** The endpoint's id in the contract's table (`devices.control`) and its domain (`devices`). */
    endpoint: text('endpoint').notNull(),
    kind: text('kind').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** The objects the request named, as `kind:id` (`device:12`). */
    targets: text('targets')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    projectId: unreferencedId('project_id'),
    /** Parameters, query and fields of the request, secrets redacted. */
    request: jsonb('request').$type<Record<string, unknown>>().notNull().default({}),
    before: jsonb('before'),
    /** 0 for success, otherwise the answer's business code. */
    code: integer('code').notNull(),
  },
  (t) => [
    index('audit_trail_tenant_at_idx').on(t.tenantId, t.at),
    index('audit_trail_at_idx').on(t.at),
    index('audit_trail_project_at_idx').on(t.projectId, t.at),
    index('audit_trail_targets_idx').using('gin', t.targets),
  ],
);
