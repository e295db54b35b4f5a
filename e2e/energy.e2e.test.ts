import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import dayjs from 'dayjs';
import {
  alertEndpoints,
  energyEndpoints,
  newSceneFields,
  projectEndpoints,
  recipientEndpoints,
  sceneEndpoints,
  type EnergyTotal,
  type EnergyTotalBody,
} from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { withServerOutput } from './support/server.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { SCREENSHOT_DIR, screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';

// Energy as an operator meets it: a floor whose gateway has sent 400 days of history (the simulator's
// backfill), charted by month and by year, listed and exported as the energy report, a recipient added in
// report management with the real-time failure switch turned on, and the home overview counting it all.
// In English, then in Japanese.

let site: GatewaySite;
let page: Page;
let token: string;
let projectId: string;
let downloads: string;

/** The colour of the "used" bars (energy-charts.ts); the legend's swatch has it too. */
const USED_BLUE = '#1677ff';
const HISTORY_DAYS = 400;

const journey = gatewayJourney('energy');
const total = (body: Omit<EnergyTotalBody, 'projectId'>) =>
  api(site.server.url, energyEndpoints.total, { body: { projectId, ...body } }, { token });
const today = () => dayjs().format('YYYY-MM-DD');
/** How many of a total's buckets (days of a month, months of a year) used any energy: each is drawn as a bar. */
const bucketsUsed = (answer: EnergyTotal) => answer.buckets.filter((b) => b.energyKwh > 0).length;

beforeAll(async () => {
  // Live readings wait until the history is in: the server counts no sample older than a device's last one.
  site = await journey.startSite({ count: 1, sim: { holdTelemetry: true } });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Office gateway',
    place: (_find, devices) =>
      devices
        .filter((d) => d.kind.startsWith('light-'))
        .map((d, i) => ({ id: d.id, x: 0.1 + (i % 6) * 0.15, y: 0.2 + Math.floor(i / 6) * 0.3 })),
  });
  token = placed.token;
  const tree = await api(site.server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
  projectId = tree.projects.find((p) => p.isDefault)!.id;
  const light = placed.devices.find((d) => d.kind === 'light-single')!;
  // A daily schedule, so the overview has runs ahead.
  await api(
    site.server.url,
    sceneEndpoints.add,
    {
      body: {
        ...newSceneFields(projectId, 'schedule', 'Office hours'),
        steps: [{ holdS: 0, members: [{ type: 'device', id: light.id, action: { on: true, percent: 100 } }] }],
        triggers: [
          { at: '08:00', offsetMin: 0, then: 'start' },
          { at: '18:00', offsetMin: 0, then: 'end' },
        ],
        days: [0, 1, 2, 3, 4, 5, 6],
      },
    },
    { token },
  );
  const gateway = site.fleet.gateways[0]!;
  // The simulator's clock runs fast; the history ends now on the wall clock, so nothing lies ahead of the page's today.
  // Three-hourly readings: every day and month still has its bar, from a third of the samples hourly ones would be.
  const outcome = await gateway.backfillEnergy({ days: HISTORY_DAYS, stepMinutes: 180, until: Date.now() - 60_000 });
  expect(outcome.samples).toBeGreaterThan(0);
  gateway.releaseTelemetry();
  await withServerOutput(site.server, () =>
    poll(
      async () => {
        const year = await total({ period: 'year', date: today() });
        const month = await total({ period: 'month', date: today() });
        const monthsCounted = bucketsUsed(year);
        return monthsCounted >= Math.min(12, dayjs().month() + 1) && bucketsUsed(month) >= dayjs().date() - 1;
      },
      'the backfilled history rolled up',
      // A year of readings to store and roll up: on a machine busy with other suites it took longer than 240 s.
      { timeoutMs: 480_000 },
    ),
  );
  downloads = await mkdtemp(join(tmpdir(), 'lumigrid-energy-'));
  page = await journey.openPage(placed.login);
}, 720_000);

afterAll(async () => {
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

/** Bars of "used" energy drawn taller than a pixel (the legend's swatch is one of them). */
async function usedBars(): Promise<number> {
  return page.$$eval(
    `[data-testid=energy-chart] svg path[fill="${USED_BLUE}"]`,
    (paths) => paths.filter((path) => (path as SVGGraphicsElement).getBBox().height > 1).length,
  );
}

async function choosePeriod(label: string) {
  await page.getByTestId('energy-period').getByText(label, { exact: true }).click();
}

/** The first sheet of a workbook as rows of cell texts, the header first. */
async function sheetRows(path: string): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const rows: string[][] = [];
  book.worksheets[0]!.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1).map((value) => (value === null || value === undefined ? '' : String(value))));
  });
  return rows;
}

describe('energy, its records, its reports and the overview', () => {
  it('charts every day of the month and the twelve months of the year with non-zero bars', async () => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto(`${site.server.url}/energy/index`);
    await page.getByTestId('energy-chart').locator('svg').waitFor();
    const month = await total({ period: 'month', date: today() });
    expect(month.buckets).toHaveLength(dayjs().daysInMonth());
    await poll(async () => (await usedBars()) >= bucketsUsed(month), 'a bar for every day counted');
    // The page opens on the month so far: in a month's first hours it may have used nothing yet.
    if (month.totals.energyKwh >= 1)
      expect(Number((await page.getByTestId('energy-kpi-energy').innerText()).replace(/[^0-9.]/g, ''))).toBeGreaterThan(0);
    if (month.totals.savedKwh >= 1)
      expect(Number((await page.getByTestId('energy-kpi-saved').innerText()).replace(/[^0-9.]/g, ''))).toBeGreaterThan(0);
    await page.getByText('Used and saved by day').waitFor();
    await page.getByTestId('energy-carbon-factor').getByText('kg CO₂/kWh').waitFor();
    await screenshot(page, 'energy-month');

    await choosePeriod('Year');
    await page.getByText('Used and saved by month').waitFor();
    const year = await total({ period: 'year', date: today() });
    expect(year.buckets).toHaveLength(12);
    await poll(async () => (await usedBars()) >= bucketsUsed(year), 'a bar for every month counted');
    await page.getByTestId('energy-chart').getByText('Jan', { exact: true }).waitFor();
    // A year of history: last year is there to compare with.
    await page.getByText('vs. the year before').first().waitFor();
    await screenshot(page, 'energy-year');
  });

  it('sets the carbon factor the CO₂ saved is reckoned with', async () => {
    await page.getByTestId('energy-carbon-edit').click();
    const factor = page.locator('input[data-testid=energy-carbon-input], [data-testid=energy-carbon-input] input');
    await factor.fill('0');
    await page.getByTestId('energy-carbon-save').click();
    await page.getByText('Between 0.0001 and 100000').first().waitFor();
    await factor.fill('0.8');
    await page.getByTestId('energy-carbon-save').click();
    await page.getByTestId('energy-carbon-factor').getByText('0.8 kg CO₂/kWh').waitFor();
    const year = await total({ period: 'year', date: today() });
    expect(year.carbonFactor).toBe(0.8);
    expect(year.totals.carbonKg).toBeCloseTo(year.totals.savedKwh * 0.8, 1);
  });

  it('lists the records of the month and downloads them as the energy report', async () => {
    await page.goto(`${site.server.url}/energy/detail`);
    const rows = page.locator('.ant-table-row');
    await rows.first().waitFor();
    const records = await api(
      site.server.url,
      energyEndpoints.records,
      { body: { projectId, from: dayjs().startOf('month').format('YYYY-MM-DD'), to: today(), unit: 'day', pageSize: 20 } },
      { token },
    );
    expect(records.total).toBeGreaterThan(0);
    expect(await rows.count()).toBe(Math.min(20, records.total));
    await rows.first().getByText(records.list[0]!.dateTimeStr).waitFor();
    await screenshot(page, 'energy-detail');

    const started = page.waitForEvent('download');
    await page.getByTestId('energy-report').click();
    const download = await started;
    const path = join(downloads, download.suggestedFilename());
    await download.saveAs(path);
    expect(path).toMatch(/\.xlsx$/);
    const [header, ...body] = await sheetRows(path);
    expect(header!.length).toBeGreaterThanOrEqual(5);
    // Every record, then a totals row.
    expect(body.length).toBeGreaterThanOrEqual(records.total);
    expect(body.some((cells) => cells.includes(records.list[0]!.dateTimeStr))).toBe(true);
  });

  it('adds a report recipient, checking the form, and turns on real-time failure alerts', async () => {
    await page.goto(`${site.server.url}/energy/report`);
    await page.getByTestId('recipient-add').click();
    await page.getByTestId('recipient-save').click();
    await page.getByText("Enter the recipient's name").waitFor();
    await page.getByText("Enter the recipient's e-mail address").waitFor();
    await page.getByTestId('recipient-name').fill('Facility desk');
    await page.getByTestId('recipient-mail').fill('not-an-address');
    await page.getByTestId('recipient-save').click();
    await page.getByText('Enter a valid e-mail address of at most 50 characters').waitFor();
    await page.getByTestId('recipient-mail').fill('desk@example.com');
    await page.getByTestId('recipient-unit').getByText('Weekly', { exact: true }).click();
    await page.getByTestId('recipient-weekday').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Friday' }).click();
    await page.getByTestId('recipient-contents').getByText('Failure alerts').click();
    await screenshot(page, 'energy-report-form');
    await page.getByTestId('recipient-save').click();

    const row = page.getByTestId('recipient-row-Facility desk');
    await row.getByText('Weekly, Friday at 08:00').waitFor();
    await row.getByText('Not sent yet').waitFor();
    await page.getByTestId('recipient-switch-Facility desk').click();
    await poll(async () => {
      const [recipient] = await api(site.server.url, recipientEndpoints.list, { query: { projectId } }, { token });
      return recipient?.realtimeFaults === true && recipient.weekday === 5 && recipient.contents.includes('faults');
    }, 'the recipient saved with real-time alerts on');
    await screenshot(page, 'energy-report');
  });

  it('shows the overview on the home page', async () => {
    await page.goto(`${site.server.url}/home`);
    await page.getByTestId('home-gateways-online').getByText('1', { exact: true }).waitFor();
    await page.getByTestId('home-gateways-offline').getByText('0', { exact: true }).waitFor();
    const devices = await api(site.server.url, alertEndpoints.deviceState, { body: { projectId } }, { token });
    expect(devices.total).toBeGreaterThan(0);
    await page.getByTestId('home-devices').getByText(`Devices (${devices.total})`).waitFor();
    await page.getByTestId('home-devices-off').getByText(String(devices.display.off)).waitFor();
    await page.getByTestId('home-alerts-open').waitFor();
    // This month so far: in a month's first hours the site may have used nothing yet.
    const month = await total({ period: 'month', date: today() });
    if (month.totals.energyKwh >= 1)
      await poll(
        async () => Number((await page.getByTestId('home-energy-month-used').innerText()).replace(/[^0-9.]/g, '')) > 0,
        'this month used',
      );
    await page.getByTestId('home-runs-list').getByText('Office hours').first().waitFor();
    await screenshot(page, 'energy-home');
  });

  it('speaks Japanese on the energy page, the report management and the overview', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    try {
      await page.goto(`${site.server.url}/energy/index`);
      await page.getByText('日ごとの使用量と削減量').waitFor();
      await page.getByTestId('energy-chart').locator('svg').waitFor();
      const month = await total({ period: 'month', date: today() });
      await poll(async () => (await usedBars()) >= bucketsUsed(month), 'the month drawn');
      await screenshot(page, 'energy-month-ja');
      await choosePeriod('年');
      await page.getByTestId('energy-chart').getByText('1月', { exact: true }).waitFor();
      await screenshot(page, 'energy-year-ja');

      await page.goto(`${site.server.url}/energy/detail`);
      await page.locator('.ant-table-row').first().waitFor();
      await page.getByText('エネルギーレポートをダウンロード').waitFor();
      await screenshot(page, 'energy-detail-ja');

      await page.goto(`${site.server.url}/energy/report`);
      await page.getByTestId('recipient-row-Facility desk').getByText('毎週金曜日 08:00').waitFor();
      await screenshot(page, 'energy-report-ja');

      await page.goto(`${site.server.url}/home`);
      await page
        .getByTestId('home-devices')
        .getByText(/^デバイス（[1-9]\d*）$/)
        .waitFor();
      await page.getByTestId('home-gateways-online').getByText('1', { exact: true }).waitFor();
      await page.getByTestId('home-runs-list').getByText('Office hours').first().waitFor();
      await page.getByText('今後のスケジュール実行').waitFor();
      await screenshot(page, 'energy-home-ja');
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'energy-home-ja-full.png'), fullPage: true });
    } finally {
      await page.evaluate(() => localStorage.setItem('lang', 'en'));
    }
  });
});
