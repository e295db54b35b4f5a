import { energyEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { requestLang } from '../../http/envelope.ts';
import { sendTable } from '../../lib/excel.ts';
import { energyColumns, energyReportName, withTotalsRow } from './energy-reports.ts';
import type { EnergyStatsService } from './energy-stats.service.ts';

/** The energy calls of the endpoint table (contract endpoints/energy.ts). */
export function registerEnergyRoutes(route: RouteOf, deps: { stats: EnergyStatsService }) {
  const { stats } = deps;

  route(E.total, ({ auth, body }) => stats.total(auth, body));

  route(E.records, ({ auth, body }) => stats.records(auth, body));

  route(E.report, async ({ auth, body, request, reply }) => {
    const lang = requestLang(request);
    const batches = await stats.report(auth, body);
    return sendTable(reply, { ...energyReportName(lang, body), columns: energyColumns(lang) }, withTotalsRow(batches, lang));
  });
}
