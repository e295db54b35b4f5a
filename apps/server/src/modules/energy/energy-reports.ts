import { savingRate, type EnergyRecord, type Lang, type Localised } from '@lumigrid/contract';
import { workbookName, type SheetColumn } from '../../lib/excel.ts';

const HEADERS = {
  sheet: { en: 'Energy', cn: '能耗报表', tc: '能耗報表', ja: 'エネルギーレポート' },
  date: { en: 'Date', cn: '日期', tc: '日期', ja: '日付' },
  project: { en: 'Project', cn: '项目', tc: '專案', ja: 'プロジェクト' },
  building: { en: 'Building', cn: '建筑', tc: '建築', ja: '建物' },
  map: { en: 'Map', cn: '地图', tc: '地圖', ja: 'マップ' },
  used: { en: 'Energy used (kWh)', cn: '实际用电 (kWh)', tc: '實際用電 (kWh)', ja: '使用電力量 (kWh)' },
  saved: { en: 'Energy saved (kWh)', cn: '节约电量 (kWh)', tc: '節約電量 (kWh)', ja: '削減電力量 (kWh)' },
  rate: { en: 'Saving rate (%)', cn: '节能率 (%)', tc: '節能率 (%)', ja: '削減率 (%)' },
  total: { en: 'Total', cn: '合计', tc: '合計', ja: '合計' },
} satisfies Record<string, Localised>;

/** The energy report's sheet and file name. */
export function energyReportName(lang: Lang, range: { from: string; to: string }) {
  return workbookName(HEADERS.sheet[lang], `${range.from}_${range.to}`);
}

/** The energy report (download_ele_report): the record table's columns. */
export function energyColumns(lang: Lang): SheetColumn<EnergyRecord>[] {
  const t = (key: keyof typeof HEADERS) => HEADERS[key][lang];
  return [
    { header: t('date'), width: 12, value: (r) => r.dateTimeStr },
    { header: t('project'), value: (r) => r.projectName },
    { header: t('building'), value: (r) => r.buildName },
    { header: t('map'), value: (r) => r.mapName },
    { header: t('used'), width: 16, value: (r) => r.powerActualAll },
    { header: t('saved'), width: 16, value: (r) => r.savePower },
    { header: t('rate'), width: 14, value: (r) => r.rate },
  ];
}

/** The records as they come, then a row of their sums labelled "Total" in the reader's language. */
export async function* withTotalsRow(batches: AsyncIterable<EnergyRecord[]>, lang: Lang): AsyncGenerator<EnergyRecord[]> {
  let usedWh = 0;
  let savedWh = 0;
  for await (const rows of batches) {
    for (const r of rows) {
      usedWh += Math.round(r.powerActualAll * 1000);
      savedWh += Math.round(r.savePower * 1000);
    }
    yield rows;
  }
  yield [
    {
      dateTimeStr: HEADERS.total[lang],
      powerActualAll: usedWh / 1000,
      savePower: savedWh / 1000,
      rate: savingRate(usedWh, savedWh),
      projectName: '',
      buildName: '',
      mapName: '',
      mapId: '',
    },
  ];
}
