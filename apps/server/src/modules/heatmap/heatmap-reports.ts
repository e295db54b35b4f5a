import type { HeatRow, Lang } from '@lumigrid/contract';
import { serverTexts } from '../../i18n/server-texts.ts';
import { workbookName, type SheetColumn } from '../../lib/excel.ts';

/** The workbook's sheet and file name. */
export function heatmapReportName(lang: Lang, range: { from: string; to: string }) {
  return workbookName(serverTexts(lang).heatmapReport.sheet, `${range.from}_${range.to}`);
}

const asPercent = (fraction: number | null) => (fraction === null ? null : Math.round(fraction * 1000) / 10);

/** gen_download: the columns of gen_page's rows. */
export function heatmapColumns(lang: Lang): SheetColumn<HeatRow>[] {
  const t = serverTexts(lang).heatmapReport;
  return [
    { header: t.sensor, width: 28, value: (r) => r.name },
    { header: t.building, value: (r) => r.buildName },
    { header: t.map, value: (r) => r.mapName },
    { header: t.x, width: 14, value: (r) => asPercent(r.x) },
    { header: t.y, width: 14, value: (r) => asPercent(r.y) },
    { header: t.count, width: 30, value: (r) => r.count },
    { header: t.percent, width: 26, value: (r) => r.percent },
  ];
}
