import { auditEndpoints as A } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { requestLang } from '../../http/envelope.ts';
import { serverTexts } from '../../i18n/server-texts.ts';
import { sendTable, workbookName } from '../../lib/excel.ts';
import { auditColumns } from './audit-export.ts';
import type { AuditService } from './audit.service.ts';

/** The audit calls of the endpoint table (contract endpoints/audit.ts). */
export function registerAuditRoutes(route: RouteOf, deps: { audit: AuditService }) {
  const { audit } = deps;
  route(A.page, ({ auth, body }) => audit.page(auth, body));
  route(A.device, ({ auth, params }) => audit.device(auth, params.id));
  route(A.export, async ({ auth, body, request, reply }) => {
    const lang = requestLang(request);
    const t = serverTexts(lang).auditExport;
    return sendTable(reply, { ...workbookName(t.sheet), columns: auditColumns(lang) }, audit.exportRows(auth, body));
  });
}
