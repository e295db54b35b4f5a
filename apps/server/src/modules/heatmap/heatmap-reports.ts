import type { HeatRow, Lang, Localised } from '@lumigrid/contract';
import { workbookName, type SheetColumn } from '../../lib/excel.ts';

const HEADERS = {
  sheet: { en: 'Heatmap', cn: '热力图', tc: '熱力圖', ja: 'ヒートマップ' },
  sensor: { en: 'Sensor', cn: '传感器', tc: '感測器', ja: 'センサー' },
  building: { en: 'Building', cn: '建筑', tc: '建築', ja: '建物' },
  map: { en: 'Map', cn: '地图', tc: '地圖', ja: 'マップ' },
  x: { en: 'Position x (%)', cn: '位置 x (%)', tc: '位置 x (%)', ja: '位置 x (%)' },
  y: { en: 'Position y (%)', cn: '位置 y (%)', tc: '位置 y (%)', ja: '位置 y (%)' },
  count: { en: 'Activations (30-minute windows)', cn: '感应次数（30分钟窗口）', tc: '感應次數（30分鐘視窗）', ja: '感知回数（30分単位）' },
  percent: { en: 'Of the most active sensor (%)', cn: '占最高值 (%)', tc: '佔最高值 (%)', ja: '最大値に対する割合 (%)' },
} satisfies Record<string, Localised>;

/** The workbook's sheet and file name. */
export function heatmapReportName(lang: Lang, range: { from: string; to: string }) {
  return workbookName(HEADERS.sheet[lang], `${range.from}_${range.to}`);
}

const asPercent = (fraction: number | null) => (fraction === null ? null : Math.round(fraction * 1000) / 10);

/** gen_download: the columns of gen_page's rows. */
export function heatmapColumns(lang: Lang): SheetColumn<HeatRow>[] {
  const t = (key: keyof typeof HEADERS) => HEADERS[key][lang];
  return [
    { header: t('sensor'), width: 28, value: (r) => r.name },
    { header: t('building'), value: (r) => r.buildName },
    { header: t('map'), value: (r) => r.mapName },
    { header: t('x'), width: 14, value: (r) => asPercent(r.x) },
    { header: t('y'), width: 14, value: (r) => asPercent(r.y) },
    { header: t('count'), width: 30, value: (r) => r.count },
    { header: t('percent'), width: 26, value: (r) => r.percent },
  ];
}
