import type { AuditDraft } from '../http/audit-entry.ts';

/**
 * The entry of an anonymous API call to the endpoint `tests.<name>` with the request `{ n }`, which tells the
 * entries of a test apart; `fields` replace any part of it.
 */
export function auditDraft(name: string, n: number, fields: Partial<AuditDraft> = {}): AuditDraft {
  return {
    at: new Date(0),
    tenantId: null,
    userId: null,
    userName: '',
    actor: 'anonymous',
    apiKeyId: null,
    via: 'api',
    ip: '',
    endpoint: `tests.${name}`,
    kind: 'tests',
    method: 'POST',
    path: `/${name}`,
    targets: [],
    project: null,
    request: { n },
    before: null,
    code: 0,
    ...fields,
  };
}
