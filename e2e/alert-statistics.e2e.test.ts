import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { alertEndpoints, projectEndpoints, type AlertStatistics, type GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { join } from 'node:path';
import { SCREENSHOT_DIR, screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';

// The fault statistics (/alert/index): faults raised on simulated devices show in the KPI cards and the charts
// (in English and Japanese), and a fault type or a map bar opens the fault list filtered to it.

let site: GatewaySite;
let page: Page;
let token: string;
let projectId: string;
let buildId: string;
let mapId: string;
let light: GatewayDevice;
let emergency: GatewayDevice;

const journey = gatewayJourney('alert-statistics');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Floor gateway',
    place: (find) => [
      { id: find('light-single').id, x: 0.3, y: 0.3 },
      { id: find('emergency').id, x: 0.6, y: 0.6 },
    ],
  });
  token = placed.token;
  mapId = placed.mapId;
  light = placed.devices.find((d) => d.kind === 'light-single')!;
  emergency = placed.devices.find((d) => d.kind === 'emergency')!;
  const tree = await api(site.server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
  const project = tree.projects.find((p) => p.isDefault)!;
  projectId = project.id;
  buildId = project.builds.find((b) => b.maps.some((m) => m.id === mapId))!.id;

  // A battery fault that comes and goes (so there is a time to clear) and an LED fault that lasts.
  const gateway = site.fleet.gateways[0]!;
  const alerts = () => api(site.server.url, alertEndpoints.page, { body: { projectId } }, { token });
  gateway.raiseFault(emergency.addr, 6);
  await poll(async () => (await alerts()).list.some((a) => a.deviceId === emergency.id && a.code === 6), 'the battery fault raised');
  gateway.clearFault(emergency.addr);
  await poll(async () => (await alerts()).list.some((a) => a.code === 6 && a.clearedAt !== null), 'the battery fault cleared');
  gateway.raiseFault(light.addr, 8);
  await poll(async () => (await alerts()).list.some((a) => a.deviceId === light.id && a.code === 8), 'the LED fault raised');

  page = await journey.openPage(placed.login);
}, 120_000);

/** The statistics of the default project (or a place) over the screen's default period, as the API answers them. */
function statistics(place: { projectId: string } | { mapId: string } = { projectId }): Promise<AlertStatistics> {
  const day = 24 * 60 * 60 * 1000;
  return api(
    site.server.url,
    alertEndpoints.statistics,
    { body: { ...place, from: new Date(Date.now() - 30 * day).toISOString(), to: new Date(Date.now() + day).toISOString(), unit: 'day' } },
    { token },
  );
}

const CHARTS = ['chart-over-time', 'chart-device-state', 'chart-by-code', 'chart-by-map'];

async function chartsDrawn() {
  for (const chart of CHARTS) await page.locator(`[data-testid=${chart}] svg`).first().waitFor();
}

async function expectKpis(stats: AlertStatistics) {
  for (const [id, value] of [
    ['total', stats.total],
    ['pending', stats.pending],
    ['open', stats.open],
  ] as const)
    await poll(async () => (await page.getByTestId(`kpi-${id}`).innerText()).trim() === String(value), `KPI ${id} = ${value}`);
}

describe('the fault statistics in a real browser', () => {
  it('shows the faults raised as KPI numbers and charts', async () => {
    const stats = await statistics();
    expect(stats).toMatchObject({ total: 2, pending: 2, open: 1 });
    expect(stats.byCode.map((c) => c.code).sort()).toEqual([6, 8]);

    await page.goto(`${site.server.url}/alert`);
    await page.waitForURL(/\/alert\/index$/);
    await page.getByRole('menuitem', { name: /Fault statistics/ }).waitFor();
    await chartsDrawn();
    await expectKpis(stats);
    await page.getByTestId('kpi-failing').getByText('1', { exact: true }).waitFor();
    // The code names come from the catalogue, inside the chart as in the list under it.
    await page.getByTestId('chart-by-code').getByText('LED fault').waitFor();
    await page.getByTestId('code-link-6').getByText('Battery fault').waitFor();
    await page.getByTestId('chart-device-state').getByText('Failure').first().waitFor();
    await screenshot(page, 'alert-statistics');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'alert-statistics-full.png'), fullPage: true });
  });

  it('speaks Japanese, charts included', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    try {
      await page.goto(`${site.server.url}/alert/index`);
      await page.getByText('故障統計').first().waitFor();
      await chartsDrawn();
      await expectKpis(await statistics());
      await page.getByTestId('chart-by-code').getByText('LED故障').waitFor();
      await page.getByTestId('chart-by-code').getByText('バッテリー故障').waitFor();
      await page.getByTestId('chart-device-state').getByText('故障').first().waitFor();
      await page.getByText('平均復旧時間').waitFor();
      await screenshot(page, 'alert-statistics-ja');
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'alert-statistics-ja-full.png'), fullPage: true });

      // Drill-down: a fault type opens the fault list filtered to it, over the same period.
      await page.getByTestId('code-link-8').click();
      await page.waitForURL(/\/alert\/list\?.*code=8/);
      expect(new URL(page.url()).searchParams.get('projectId')).toBe(projectId);
      await page.getByTestId(`alert-row-${light.name}`).getByText('LED故障').waitFor();
      await page.locator('.ant-pro-table-search').getByText('LED故障').waitFor();
      await poll(async () => (await page.getByTestId(`alert-row-${emergency.name}`).count()) === 0, 'the battery fault filtered out');
      await screenshot(page, 'alert-statistics-drill-ja');
    } finally {
      await page.evaluate(() => localStorage.setItem('lang', 'en'));
    }
  });

  it('narrows the statistics to a map from the place tree, failures counted beside each place', async () => {
    await page.goto(`${site.server.url}/alert/index`);
    await chartsDrawn();
    await page.getByTestId('stats-place').click();
    const expand = (key: string) =>
      page
        .locator('.ant-select-tree-treenode', { has: page.getByTestId(`place-${key}`) })
        .locator('.ant-select-tree-switcher')
        .click();
    await expand(`project:${projectId}`);
    await expand(`build:${projectId}:${buildId}`);
    const map = page.getByTestId(`place-map:${projectId}:${mapId}`);
    // The LED fault lasts: the map shows one device in failure.
    await map.locator('.ant-badge').getByText('1').first().waitFor();
    await screenshot(page, 'alert-statistics-places');
    await map.click();
    await page
      .getByTestId('stats-place')
      .locator('.ant-select-selection-item')
      .getByText('Default project / Default building / Default map')
      .waitFor();
    await expectKpis(await statistics({ mapId }));
  });

  it('opens the faults of a map from its bar', async () => {
    await page.goto(`${site.server.url}/alert/index`);
    await chartsDrawn();
    // A click on the drawn bar itself, as a person does (the SVG renderer draws each bar as a path).
    await page.locator('[data-testid=chart-by-map] path[fill="#4096ff"]').first().click();
    await page.waitForURL(/\/alert\/list\?/);
    const query = new URL(page.url()).searchParams;
    expect(query.get('mapId')).toBe(mapId);
    expect(query.get('code')).toBeNull();
    await page.getByTestId('alerts-place-filter').getByText('Default building / Default map').waitFor();
    await page.getByTestId(`alert-row-${light.name}`).waitFor();
    await page.getByTestId(`alert-row-${emergency.name}`).waitFor();
    await screenshot(page, 'alert-statistics-drill-map');
  });
});
