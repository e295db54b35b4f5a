import {
  DEVICE_CHANGES_SHOWN,
  USER_AUTH,
  type AuditDeviceChanges,
  type AuditEntry,
  type AuditExportBody,
  type AuditListBody,
  type AuditPage,
} from '@lumigrid/contract';
import type { AuthContext } from '../../http/auth.ts';
import { parseTarget } from '../../http/audit-entry.ts';
import { paging } from '../../lib/paging.ts';
import { toId, visibleProjectIds } from '../access/access.ts';
import type { AuditFilter, AuditRepo, AuditRow, AuditVisibility } from './audit.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'userId' | 'userAuth' | 'scope'>;

/** The entries a caller may read (AuditVisibility), from who they are. */
export function auditVisibility(auth: Caller): AuditVisibility {
  if (auth.userAuth === USER_AUTH.admin) return { all: true };
  if (auth.userAuth === USER_AUTH.subAccount)
    return { all: false, tenantId: auth.tenantId, subAccount: { userId: auth.userId, projectIds: visibleProjectIds(auth) } };
  return { all: false, tenantId: auth.tenantId };
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    actor: row.actor,
    userId: row.userId === null ? null : String(row.userId),
    userName: row.userName,
    apiKeyId: row.apiKeyId === null ? null : String(row.apiKeyId),
    accountId: row.tenantId === null ? null : String(row.tenantId),
    via: row.via,
    ip: row.ip,
    endpoint: row.endpoint,
    kind: row.kind,
    method: row.method,
    path: row.path,
    targets: row.targets.map(parseTarget).filter((t) => t !== undefined),
    projectId: row.projectId === null ? null : String(row.projectId),
    projectName: row.projectName ?? '',
    request: row.request,
    before: row.before ?? null,
    code: row.code,
  };
}

function filterOf(body: AuditExportBody): AuditFilter {
  return {
    from: body.from ? new Date(body.from) : undefined,
    to: body.to ? new Date(body.to) : undefined,
    userId: body.userId ? toId(body.userId) : undefined,
    projectId: body.projectId ? toId(body.projectId) : undefined,
    kind: body.kind,
    targetKind: body.targetKind,
    targetId: body.targetId,
    ok: body.ok,
  };
}

/** Reading the audit trail: what each caller may see of it (the writing is the route layer's, audit-writer.ts). */
export function createAuditService(deps: { repo: AuditRepo }) {
  return {
    async page(auth: Caller, body: AuditListBody): Promise<AuditPage> {
      const { total, rows } = await deps.repo.page(auditVisibility(auth), filterOf(body), paging(body));
      return { total, list: rows.map(toAuditEntry) };
    },

    /** The batches of the export (every row the filters take); checks are done before the first is asked for. */
    exportRows(auth: Caller, body: AuditExportBody): AsyncIterable<AuditEntry[]> {
      const batches = deps.repo.batches(auditVisibility(auth), filterOf(body));
      return (async function* () {
        for await (const rows of batches) yield rows.map(toAuditEntry);
      })();
    },

    /** A device's latest successful changes and commands (the route layer has checked the device is the caller's). */
    async device(auth: Caller, deviceId: string): Promise<AuditDeviceChanges> {
      const { rows } = await deps.repo.page(
        auditVisibility(auth),
        { targetKind: 'device', targetId: String(toId(deviceId)), ok: true },
        { offset: 0, limit: DEVICE_CHANGES_SHOWN },
      );
      return { list: rows.map(toAuditEntry) };
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
