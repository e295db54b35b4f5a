import { endpoint } from '../endpoint.ts';
import { SpreadsheetSchema, XLSX_MIME } from '../common.ts';
import {
  AuditDeviceChangesSchema,
  AuditDeviceParamsSchema,
  AuditExportBodySchema,
  AuditListBodySchema,
  AuditPageSchema,
} from '../audit.ts';

const TENANCY =
  'The platform administrator sees every entry; an account its own users\u2019 and its sub-accounts\u2019; a sub-account its own entries and those on the projects it may see.';

/** The audit trail of changes and commands (docs/operations.md "Audit trail"). */
export const auditEndpoints = {
  page: endpoint({
    method: 'POST',
    path: '/api4/audit/v1/page',
    tags: ['audit'],
    summary: 'The audit trail, newest first: who changed or commanded what, when, from where, with what outcome',
    description: `Filters: time range, user, project, kind (a domain such as devices, or one endpoint id), target, outcome. ${TENANCY}`,
    access: 'read',
    objects: { body: { projectId: 'project' } },
    body: AuditListBodySchema,
    response: AuditPageSchema,
  }),
  export: endpoint({
    method: 'POST',
    path: '/api4/audit/v1/export',
    tags: ['audit'],
    summary: 'The audit trail as an Excel workbook',
    description: `The rows the list shows for the same filters (every page), headers in the caller\u2019s language. ${TENANCY}`,
    access: 'read',
    objects: { body: { projectId: 'project' } },
    body: AuditExportBodySchema,
    kind: 'raw',
    produces: [XLSX_MIME],
    response: SpreadsheetSchema,
  }),
  device: endpoint({
    method: 'GET',
    path: '/api4/audit/v1/device/:id',
    tags: ['audit'],
    summary: 'The latest successful changes and commands that named a device, newest first',
    description: 'What the device panel shows: who switched, dimmed or edited it, and when.',
    access: 'read',
    objects: { params: { id: 'device' } },
    params: AuditDeviceParamsSchema,
    response: AuditDeviceChangesSchema,
  }),
};
