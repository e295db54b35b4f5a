import { heatmapEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { requestLang } from '../../http/envelope.ts';
import { sendTable } from '../../lib/excel.ts';
import { heatmapColumns, heatmapReportName } from './heatmap-reports.ts';
import type { HeatmapService } from './heatmap.service.ts';

/** The heatmap calls of the endpoint table (contract endpoints/heatmap.ts). */
export function registerHeatmapRoutes(route: RouteOf, deps: { heatmap: HeatmapService }) {
  const { heatmap } = deps;

  route(E.gen, ({ auth, body }) => heatmap.gen(auth, body));

  route(E.page, ({ auth, body }) => heatmap.page(auth, body));

  route(E.download, async ({ auth, body, request, reply }) => {
    const lang = requestLang(request);
    const rows = await heatmap.download(auth, body);
    return sendTable(reply, { ...heatmapReportName(lang, body), columns: heatmapColumns(lang) }, [rows]);
  });

  route(E.settings, ({ auth, params }) => heatmap.settings(auth, params.projectId));

  route(E.saveSettings, ({ auth, body }) => heatmap.saveSettings(auth, body));

  route(E.resetSettings, ({ auth, body }) => heatmap.resetSettings(auth, body));
}
