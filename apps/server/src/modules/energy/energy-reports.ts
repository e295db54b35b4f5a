import { savingRate, type EnergyRecord, type Lang } from '@lumigrid/contract';
import { serverTexts } from '../../i18n/server-texts.ts';
import { workbookName, type SheetColumn } from '../../lib/excel.ts';

/** The energy report's sheet and file name. */
export function energyReportName(lang: Lang, range: { from: string; to: string }) {
  return workbookName(serverTexts(lang).energyReport.sheet, `${range.from}_${range.to}`);
}

/** The energy report (download_ele_report): the record table's columns. */
export function energyColumns(lang: Lang): SheetColumn<EnergyRecord>[] {
  const t = serverTexts(lang).energyReport;
  return [
    { header: t.date, width: 12, value: (r) => r.dateTimeStr },
    { header: t.project, value: (r) => r.projectName },
    { header: t.building, value: (r) => r.buildName },
    { header: t.map, value: (r) => r.mapName },
    { header: t.used, width: 16, value: (r) => r.powerActualAll },
    { header: t.saved, width: 16, value: (r) => r.savePower },
    { header: t.rate, width: 14, value: (r) => r.rate },
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
      dateTimeStr: serverTexts(lang).energyReport.total,
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
