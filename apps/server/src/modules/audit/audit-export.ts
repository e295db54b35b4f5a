import type { AuditEntry, Lang } from '@lumigrid/contract';
import { serverTexts } from '../../i18n/server-texts.ts';
import type { SheetColumn } from '../../lib/excel.ts';

/** The columns of the export, headers in the reader's language; times in UTC, as the header says. */
export function auditColumns(lang: Lang): SheetColumn<AuditEntry>[] {
  const t = serverTexts(lang).auditExport;
  return [
    { header: t.at, width: 20, value: (e) => new Date(e.at) },
    { header: t.user, width: 20, value: (e) => e.userName },
    { header: t.actor, width: 12, value: (e) => e.actor },
    { header: t.via, width: 8, value: (e) => e.via },
    { header: t.ip, width: 16, value: (e) => e.ip },
    { header: t.endpoint, width: 24, value: (e) => e.endpoint },
    { header: t.path, width: 36, value: (e) => `${e.method} ${e.path}` },
    { header: t.project, width: 20, value: (e) => e.projectName },
    { header: t.targets, width: 24, value: (e) => e.targets.map((x) => `${x.kind}:${x.id}`).join(', ') },
    { header: t.request, width: 60, value: (e) => (Object.keys(e.request).length > 0 ? JSON.stringify(e.request) : '') },
    { header: t.before, width: 40, value: (e) => (e.before === null || e.before === undefined ? '' : JSON.stringify(e.before)) },
    { header: t.code, width: 12, value: (e) => e.code },
  ];
}
