import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { REALTIME_ENDPOINT, deviceEndpoints, gatewayEndpoints, mapDestination } from '@lumigrid/contract';
import type { Gateway, GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { screenshot } from './support/browser.ts';
import { colourAt, floorPlanPng, screenAt } from './support/floor-plan.ts';
import type { GatewaySite } from './support/gateways.ts';

// A fault as it happens: a simulated light on the floor plan reports an LED fault, its marker turns red and one
// warning names it however often the gateway reports; the fault is marked handled on /alert/list and comes
// back in the failure report the page downloads; the status view counts it. Once in English, once in Japanese.

let site: GatewaySite;
let page: Page;
let token: string;
let mapId: string;
let gateway: Gateway;
let devices: GatewayDevice[];
let downloads: string;
/** The frames the page's real-time socket received since the map was last opened. */
let liveFrames: string[] = [];

const NOTE = 'Replaced the LED driver';
/** The failure fill of the markers and the status summary (the legend's red). */
const FAILURE_RED = '#ff4d4f';

const sim = () => site.fleet.gateways[0]!;
const byKind = (kind: string) => devices.find((d) => d.kind === kind)!;
const markers = () => api(site.server.url, deviceEndpoints.markers, { query: { mapId } }, { token });
const detail = (id: string) => api(site.server.url, deviceEndpoints.detail, { params: { mapId, id } }, { token });

const journey = gatewayJourney('faults-live');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Floor gateway',
    floorPlan: floorPlanPng(1000, 600),
    place: (find) => [
      { id: find('light-single').id, x: 0.3, y: 0.35 },
      { id: find('light-dimmer').id, x: 0.55, y: 0.35 },
    ],
  });
  ({ token, mapId, gateway, devices } = placed);
  await api(site.server.url, gatewayEndpoints.reReport, { params: { id: gateway.id } }, { token });
  await poll(async () => (await markers()).every((m) => m.status !== ''), 'every placed device reported');
  downloads = await mkdtemp(join(tmpdir(), 'lumigrid-faults-live-'));
  page = await journey.openPage(placed.login);
}, 120_000);

afterAll(async () => {
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

async function openMap() {
  const socket = page.waitForEvent('websocket', (ws) => ws.url().includes(REALTIME_ENDPOINT));
  await page.goto(`${site.server.url}/device/control`);
  liveFrames = [];
  (await socket).on('framereceived', (frame) => liveFrames.push(String(frame.payload)));
  await page.getByTestId('floor-plan-map').and(page.locator('[data-state=ready]')).waitFor();
  await page.locator(`[data-testid=device-canvas][data-drawn="${(await markers()).length}"]`).waitFor();
  // The server has confirmed the map's topic, and the account's notices subscribed before it: a fault raised
  // from now on reaches the page.
  await page.locator('[data-testid=device-plan][data-live=true]').waitFor();
}

/** Counts, in the page, every fault notification that appears from now on (antd removes them after a while). */
async function countNotifications() {
  await page.evaluate(() => {
    const seen = new WeakSet<Element>();
    const texts: string[] = [];
    (window as unknown as { faultNotices: string[] }).faultNotices = texts;
    new MutationObserver(() => {
      for (const notice of Array.from(document.querySelectorAll('.ant-notification-notice'))) {
        if (seen.has(notice)) continue;
        seen.add(notice);
        texts.push(notice.textContent ?? '');
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  return async (name: string) =>
    (await page.evaluate(() => (window as unknown as { faultNotices: string[] }).faultNotices)).filter((text) => text.includes(name))
      .length;
}

/** Raises a fault on a placed device and waits until the plan draws it red and its warning is shown. */
async function raiseFaultOnPlan(device: GatewayDevice, code: number) {
  const notices = await countNotifications();
  sim().raiseFault(device.addr, code);
  await poll(async () => (await markers()).find((m) => m.id === device.id)?.display === 'failure', 'the device in failure');
  const marker = (await markers()).find((m) => m.id === device.id)!;
  await poll(async () => (await colourAt(page, await screenAt(page, { x: marker.x!, y: marker.y! }))) === FAILURE_RED, 'a red marker');
  await page.locator('.ant-notification-notice').filter({ hasText: device.name }).waitFor();
  return notices;
}

/** Has the gateway report every device again and waits until the server has taken the device's report. */
async function anotherReport(device: GatewayDevice) {
  // The server's arrival time, to the millisecond: a later report's differs.
  const before = (await detail(device.id)).lastUpdate;
  const heard = markersHeard(device);
  await api(site.server.url, gatewayEndpoints.reReport, { params: { id: gateway.id } }, { token });
  await poll(async () => (await detail(device.id)).lastUpdate !== before, 'a further report of the device');
  // A notice would be published with the report it follows from: wait until the page's socket has delivered
  // what the server published from this report, the device's marker on the map's topic.
  await poll(async () => markersHeard(device) > heard, "the report's marker on the page");
}

/** How many markers of the device the page's socket has received on the map's topic since the map opened. */
function markersHeard(device: GatewayDevice): number {
  let count = 0;
  for (const payload of liveFrames) {
    // SockJS carries an array of STOMP frames: `a["MESSAGE\ndestination:…\n\n{…}\u0000", …]`.
    if (!payload.startsWith('a[')) continue;
    for (const frame of JSON.parse(payload.slice(1)) as string[]) {
      const [headers = '', body = ''] = frame.split('\n\n', 2);
      if (!headers.split('\n').includes(`destination:${mapDestination(mapId)}`)) continue;
      if ((JSON.parse(body.split('\0')[0]!) as { id?: string }).id === device.id) count++;
    }
  }
  return count;
}

async function downloadThrough(testId: string): Promise<{ download: Download; path: string }> {
  const started = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  const download = await started;
  const path = join(downloads, download.suggestedFilename());
  await download.saveAs(path);
  return { download, path };
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

describe('a live fault from the plan to the report', () => {
  it('draws the failing light red and warns once, however often the gateway reports', async () => {
    const light = byKind('light-single');
    await openMap();
    const notices = await raiseFaultOnPlan(light, 8);
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: `${light.name}: LED fault` })
      .waitFor();
    await screenshot(page, 'faults-live-notification');

    await anotherReport(light);
    await anotherReport(light);
    expect(await notices(light.name)).toBe(1);
    await screenshot(page, 'faults-live-plan-red');

    const { path } = await downloadThrough('device-map-report');
    const [header, ...rows] = await sheetRows(path);
    expect(header).toEqual(expect.arrayContaining(['Name', 'State', 'Fault']));
    expect(rows).toHaveLength((await markers()).length);
    expect(rows.find((cells) => cells.includes(light.name))).toEqual(expect.arrayContaining(['Failure', 'LED fault']));
  });

  it('is marked handled with a note on the fault list and comes back in the failure report', async () => {
    const light = byKind('light-single');
    await page.goto(`${site.server.url}/alert/list`);
    const listed = page.getByTestId(`alert-row-${light.name}`);
    await listed.getByText('LED fault').waitFor();
    await listed.locator('.ant-checkbox-input').check();
    await page.getByTestId('alerts-handle').click();
    await page.getByTestId('alerts-note').fill(NOTE);
    await page.getByTestId('alerts-handle-ok').click();
    await listed.getByTestId('alert-note').getByText(NOTE).waitFor();
    await listed.getByTestId('alert-state').getByText('Handled').waitFor();

    const { path } = await downloadThrough('alerts-fail-report');
    expect(path).toMatch(/\.xlsx$/);
    const [header, ...rows] = await sheetRows(path);
    expect(header).toEqual(expect.arrayContaining(['Device', 'Fault code', 'Fault', 'Note']));
    const row = rows.find((cells) => cells.includes(light.name));
    expect(row).toBeDefined();
    expect(row).toEqual(expect.arrayContaining(['LED fault', 'Floor gateway', 'Handled', NOTE]));
  });

  it('counts the fault in the status view, filters by it and downloads the status report', async () => {
    const light = byKind('light-single');
    await page.goto(`${site.server.url}/device/list/status`);
    const strip = page.getByTestId('device-state-strip');
    await strip.getByTestId('device-state-total').getByText(String(devices.length)).waitFor();
    await strip.getByTestId('device-state-failure').locator('.ant-statistic-content-value').getByText('1', { exact: true }).waitFor();
    await strip.getByTestId('device-state-openAlerts').locator('.ant-statistic-content-value').getByText('1', { exact: true }).waitFor();
    await screenshot(page, 'faults-live-status');

    await page.getByTestId('device-status-fault').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'LED fault' }).click();
    await page.getByRole('button', { name: /Query|Search/ }).click();
    const rows = page.locator('.ant-table-row');
    await poll(async () => (await rows.count()) === 1, 'only the failing light');
    await rows.first().getByText(light.name).waitFor();

    const { path } = await downloadThrough('status-report');
    const [, ...reported] = await sheetRows(path);
    expect(reported.map((cells) => cells.includes(light.name))).toEqual([true]);
  });

  it('speaks Japanese: the warning, the red marker, the summary and the report headers', async () => {
    const dimmer = byKind('light-dimmer');
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    try {
      await openMap();
      await raiseFaultOnPlan(dimmer, 1);
      await page.locator('.ant-notification-notice').filter({ hasText: 'デバイス故障' }).filter({ hasText: dimmer.name }).waitFor();
      await screenshot(page, 'faults-live-plan-red-ja');

      await page.goto(`${site.server.url}/device/list/status`);
      const strip = page.getByTestId('device-state-strip');
      await strip.getByText('故障', { exact: true }).waitFor();
      await strip.getByTestId('device-state-failure').locator('.ant-statistic-content-value').getByText('2', { exact: true }).waitFor();
      await screenshot(page, 'faults-live-status-ja');

      await page.goto(`${site.server.url}/alert/list`);
      await page.getByTestId(`alert-row-${dimmer.name}`).getByText('電源異常').waitFor();
      const { path } = await downloadThrough('alerts-fail-report');
      const [header, ...rows] = await sheetRows(path);
      expect(header).toEqual(expect.arrayContaining(['デバイス', '故障コード', '故障内容', 'メモ']));
      expect(rows.find((cells) => cells.includes(dimmer.name))).toEqual(expect.arrayContaining(['電源異常']));
      await screenshot(page, 'faults-live-alerts-ja');
    } finally {
      await page.evaluate(() => localStorage.setItem('lang', 'en'));
    }
  });
});
