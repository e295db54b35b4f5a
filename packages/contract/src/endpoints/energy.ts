import { endpoint } from '../endpoint.ts';
import { SpreadsheetSchema, XLSX_MIME } from '../common.ts';
import {
  EnergyRecordBodySchema,
  EnergyRecordPageSchema,
  EnergyReportBodySchema,
  EnergyTotalBodySchema,
  EnergyTotalSchema,
} from '../energy.ts';

/** The energy calls of spec section 7 "Energy and reports". */
export const energyEndpoints = {
  total: endpoint({
    method: 'POST',
    path: '/api6/ele_use/v1/total',
    tags: ['energy'],
    summary: 'Energy used and saved by a project, building or map: a day by hour, a month by day, a year by month',
    description:
      'Every bucket of the period is present (24 hours, each day of the month, 12 months), zero where nothing was used; days and hours are the local time of each device\u2019s gateway. With totals, CO2 saved (the project\u2019s carbon factor) and the totals of the period before. A place of another account answers 110011.',
    access: 'read',
    body: EnergyTotalBodySchema,
    response: EnergyTotalSchema,
  }),
  records: endpoint({
    method: 'POST',
    path: '/api6/ele_use/v1/page_record',
    tags: ['energy'],
    summary: 'Energy records: one row per map per day or month, newest first',
    description:
      'Of a project, building or map from `from` to `to` (inclusive, local dates), rows only where energy was counted. A place of another account answers 110011; `to` before `from`, or a span over ten years, 100001.',
    access: 'read',
    body: EnergyRecordBodySchema,
    response: EnergyRecordPageSchema,
  }),
  report: endpoint({
    method: 'POST',
    path: '/api6/data/v1/download_ele_report',
    tags: ['energy'],
    summary: 'The energy records as an Excel workbook',
    description:
      'Every record the filters of page_record take, newest first, then a totals row; headers in the caller\u2019s language. Streamed.',
    access: 'read',
    body: EnergyReportBodySchema,
    kind: 'raw',
    produces: [XLSX_MIME],
    response: SpreadsheetSchema,
  }),
};
