import type { EnergyRecord } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { energyColumns, energyReportName, withTotalsRow } from './energy-reports.ts';

// The energy report's rows and headers, without a database or a workbook.

const record = (powerActualAll: number, savePower: number, over: Partial<EnergyRecord> = {}): EnergyRecord => ({
  dateTimeStr: '2026-11-23',
  projectName: 'Tower',
  buildName: 'North',
  mapName: 'Floor 1',
  mapId: '300',
  powerActualAll,
  savePower,
  rate: null,
  ...over,
});

async function* batches(...lists: EnergyRecord[][]) {
  for (const list of lists) yield list;
}

async function collect(source: AsyncIterable<EnergyRecord[]>) {
  const out: EnergyRecord[][] = [];
  for await (const rows of source) out.push(rows);
  return out;
}

describe('withTotalsRow: the records as they come, then their sums', () => {
  it('passes every batch through unchanged and in order', async () => {
    const first = [record(1, 0.5)];
    const second = [record(2, 1), record(3, 0)];
    const out = await collect(withTotalsRow(batches(first, second), 'en'));
    expect(out.slice(0, 2)).toEqual([first, second]);
    expect(out).toHaveLength(3);
  });

  it('sums used and saved energy over every batch, with the saving rate of the sums', async () => {
    const out = await collect(withTotalsRow(batches([record(1, 0.5)], [record(2, 1), record(3, 0.5)]), 'en'));
    expect(out.at(-1)).toEqual([
      { dateTimeStr: 'Total', powerActualAll: 6, savePower: 2, rate: 25, projectName: '', buildName: '', mapName: '', mapId: '' },
    ]);
  });

  it('adds to the watt-hour, so binary fractions leave no noise in the total', async () => {
    const out = await collect(withTotalsRow(batches([record(0.1, 0.1), record(0.2, 0.2)]), 'en'));
    expect(out.at(-1)![0]).toMatchObject({ powerActualAll: 0.3, savePower: 0.3 });
  });

  it('totals an empty report as zeros with no rate', async () => {
    const out = await collect(withTotalsRow(batches(), 'en'));
    expect(out).toEqual([[expect.objectContaining({ dateTimeStr: 'Total', powerActualAll: 0, savePower: 0, rate: null })]]);
  });

  it.each([
    ['cn', '合计'],
    ['tc', '合計'],
    ['ja', '合計'],
  ] as const)('labels the total in %s as %s', async (lang, label) => {
    const out = await collect(withTotalsRow(batches([record(1, 1)]), lang));
    expect(out.at(-1)![0]!.dateTimeStr).toBe(label);
  });
});

describe('the energy report’s sheet', () => {
  it('names the sheet and the file by language and range', () => {
    expect(energyReportName('en', { from: '2026-11-01', to: '2026-11-30' })).toEqual({
      sheetName: 'Energy',
      fileName: 'Energy 2026-11-01_2026-11-30.xlsx',
    });
    expect(energyReportName('ja', { from: '2026-11-01', to: '2026-11-30' }).fileName).toBe('エネルギーレポート 2026-11-01_2026-11-30.xlsx');
  });

  it('has the seven columns in order, each reading its field', () => {
    const columns = energyColumns('en');
    expect(columns.map((c) => c.header)).toEqual([
      'Date',
      'Project',
      'Building',
      'Map',
      'Energy used (kWh)',
      'Energy saved (kWh)',
      'Saving rate (%)',
    ]);
    const row = record(4, 1, { rate: 20 });
    expect(columns.map((c) => c.value(row))).toEqual(['2026-11-23', 'Tower', 'North', 'Floor 1', 4, 1, 20]);
  });

  it('speaks Chinese in its headers', () => {
    expect(energyColumns('cn').map((c) => c.header)).toContain('节能率 (%)');
  });
});
