import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { EMERGENCY_CATEGORY_COLOURS, emergencyEndpoints, gatewayEndpoints, projectEndpoints, type GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { SCREENSHOT_DIR, screenshot } from './support/browser.ts';
import { colourAt, floorPlanPng, screenAt } from './support/floor-plan.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import type { GatewaySite } from './support/gateways.ts';

// Emergency lighting as an inspector's site meets it: a test task built from the gateway's emergency lights (the
// name rules checked on the way), a function test started by hand and watched on the emergency map (the lights
// turn "testing" blue, then back) until the task reaches 100 %, the run's report with each light's measurements
// downloaded as Excel, and the log book listing the tests, downloaded as the PDF an inspector signs. Then a
// duration test that ends in a battery fault: failed in the compliance view and in the PDF, with its kind, the
// building and the site's local time. Then the same pages in Japanese.

let site: GatewaySite;
let page: Page;
let token: string;
let mapId: string;
let projectId: string;
let gatewayId: string;
let buildName: string;
let lights: GatewayDevice[];
let downloads: string;
/** The signed-in administrator's name, which the log book records. */
let who: string;

const TASK = 'Monthly exit lights';
const DURATION_TASK = 'Yearly stairwell';
/** The site's zone (its gateway's): the log book's times are on its wall clock. */
const SITE_ZONE = 'Asia/Tokyo';
const TOO_LONG = '应急照明月度检测一'; // nine Chinese characters: one more than the spec allows
/** Where the lights stand on the plan (fractions of its width and height). */
const SPOTS = [
  { x: 0.25, y: 0.3 },
  { x: 0.55, y: 0.3 },
  { x: 0.85, y: 0.75 },
];

const journey = gatewayJourney('emergency');
const tasks = () => api(site.server.url, emergencyEndpoints.tasks, { body: { projectId } }, { token }).then((p) => p.list);

beforeAll(async () => {
  // A 60 s function test lasts about 6 s of wall time (time factor 100 x 0.1): long enough to see it run.
  site = await journey.startSite({ count: 1, sim: { emergencyTimeFactor: 0.1 } });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Corridor gateway',
    floorPlan: floorPlanPng(1000, 600),
    place: (_find, devices) =>
      devices
        .filter((d) => d.kind.startsWith('emergency'))
        .slice(0, SPOTS.length)
        .map((d, i) => ({ id: d.id, ...SPOTS[i]! })),
  });
  ({ token, mapId } = placed);
  who = placed.login.user.name;
  lights = placed.devices.filter((d) => d.kind.startsWith('emergency')).slice(0, SPOTS.length);
  expect(lights.length).toBeGreaterThanOrEqual(2);
  const tree = await api(site.server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
  const project = tree.projects.find((p) => p.isDefault)!;
  projectId = project.id;
  buildName = project.builds[0]!.name;
  gatewayId = placed.gateway.id;
  await poll(async () => {
    const map = await api(site.server.url, emergencyEndpoints.mapState, { params: { id: mapId } }, { token });
    return map.lights.length === lights.length && map.lights.every((l) => l.state !== null);
  }, 'every emergency light reported its state');
  downloads = await mkdtemp(join(tmpdir(), 'lumigrid-emergency-'));
  page = await journey.openPage(placed.login);
  await page.setViewportSize({ width: 1440, height: 960 });
}, 120_000);

afterAll(async () => {
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

/** The duration field (antd puts the test id on the input itself or on its wrapper, depending on the addon). */
const duration = () => page.locator('input[data-testid=emergency-form-duration], [data-testid=emergency-form-duration] input');

/** The colour of a light's marker on the emergency map. */
const markerColour = async (index: number) => colourAt(page, await screenAt(page, SPOTS[index]!));

async function download(testId: string): Promise<string> {
  const started = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  const file = await started;
  const path = join(downloads, file.suggestedFilename());
  await file.saveAs(path);
  return path;
}

/** A workbook's first sheet as rows of cell texts. */
async function sheetRows(path: string): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const rows: string[][] = [];
  book.worksheets[0]!.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1).map((value) => (value === null || value === undefined ? '' : String(value))));
  });
  return rows;
}

describe('emergency lighting tests, their reports and the log book', () => {
  it('creates a task from the gateway tree, refusing a nine-character Chinese name and a duplicate name', async () => {
    await page.goto(`${site.server.url}/emergency`);
    await page.waitForURL(/\/emergency\/set$/);
    await page.getByTestId('emergency-task-add').click();
    await page.getByTestId('emergency-form-name').fill(TOO_LONG);
    await duration().fill('300');
    await page.getByTestId('emergency-form-save').click();
    await page.getByText('The name has at most 8 Chinese characters (24 letters)').waitFor();
    await page.getByText('Invalid Input (15-254)').first().waitFor();
    await page.getByTestId('emergency-place-error').getByText('devices moved to the right-hand list').waitFor();

    await page.getByTestId('emergency-form-name').fill(TASK);
    await duration().fill('60');
    // Every emergency light of the gateway, moved to the right-hand list.
    const transfer = page.getByTestId('emergency-transfer');
    for (const light of lights) await transfer.getByText(light.name, { exact: true }).click();
    await transfer.locator('.ant-transfer-operation button').first().click();
    await screenshot(page, 'emergency-task-form');
    await page.getByTestId('emergency-form-save').click();
    await page.waitForURL(/\/emergency\/set\/details\?i=\d+&p=\d+/);
    await page.getByText(`Lights (${lights.length})`).waitFor();
    const [task] = await tasks();
    expect(task).toMatchObject({ name: TASK, test: 'function', duration: 60, quantity: lights.length, status: 'idle' });

    // The same name again: 340001's message, on the page and at the field.
    await page.goto(`${site.server.url}/emergency/set/add?p=${projectId}`);
    await page.getByTestId('emergency-form-name').fill(TASK);
    await page.getByTestId('emergency-transfer').getByText(lights[0]!.name, { exact: true }).click();
    await page.getByTestId('emergency-transfer').locator('.ant-transfer-operation button').first().click();
    await page.getByTestId('emergency-form-save').click();
    await page.getByText('Emergency test task name already exists').first().waitFor();
    expect(await tasks()).toHaveLength(1);
  });

  it('runs a function test: the lights turn blue on the emergency map, then the task reaches 100 % and passes', async () => {
    await page.goto(`${site.server.url}/emergency/set`);
    await page.getByTestId(`emergency-start-${TASK}`).click();
    await page.locator('.ant-modal-confirm-title').getByText('Sure to start the test now?').waitFor();
    await page.getByTestId('emergency-confirm-start').click();
    await page.getByTestId('emergency-tab-map').click();
    await page.getByTestId('floor-plan-map').and(page.locator('[data-state=ready]')).waitFor();
    await page.locator(`[data-testid=device-canvas][data-drawn="${lights.length}"]`).waitFor();
    await poll(async () => (await markerColour(0)) === EMERGENCY_CATEGORY_COLOURS.testing, 'the first light drawn testing blue');
    await page.getByTestId('emergency-legend-testing').waitFor();
    await screenshot(page, 'emergency-map-testing');

    await poll(async () => (await tasks())[0]?.status === 'finished', 'the run finished', { timeoutMs: 60_000 });
    await poll(async () => (await markerColour(0)) !== EMERGENCY_CATEGORY_COLOURS.testing, 'the first light no longer testing');
    await page.getByTestId(`emergency-light-${lights[0]!.name}`).click();
    await page.getByTestId('emergency-light-card').getByText('Pass', { exact: true }).waitFor();
    await screenshot(page, 'emergency-map');

    await page.getByTestId('emergency-tab-tasks').click();
    await page.getByTestId(`emergency-task-progress-${TASK}`).getByText('100%').waitFor();
    await page.getByTestId(`emergency-task-result-${TASK}`).getByText('Pass').waitFor();
    await screenshot(page, 'emergency-tasks');
    await page.getByTestId(`emergency-task-link-${TASK}`).click();
    await page.getByTestId('emergency-detail-result').getByText('Pass').waitFor();
    expect(await page.getByTestId('emergency-detail-progress').getAttribute('data-progress')).toBe('100');
    await page.getByTestId(`emergency-device-result-${lights[0]!.name}`).waitFor();
    await screenshot(page, 'emergency-task-detail');
  });

  it('opens the run report with each light’s measurements and downloads it as Excel', async () => {
    await page.goto(`${site.server.url}/emergency/report`);
    await page.getByTestId(`emergency-run-result-${TASK}`).getByText('Pass').waitFor();
    await screenshot(page, 'emergency-records');
    await page.getByTestId(`emergency-run-link-${TASK}`).click();
    await page.waitForURL(/\/emergency\/report\/details\?id=\d+/);
    for (const light of lights) await page.getByTestId(`emergency-record-row-${light.name}`).waitFor();
    await page.getByTestId('emergency-run-result').getByText('Pass').waitFor();
    await page.getByText('Voltage before (V)').first().waitFor();
    await screenshot(page, 'emergency-report');

    const path = await download('emergency-run-download');
    expect(path).toMatch(/\.xlsx$/);
    const [header, ...body] = await sheetRows(path);
    expect(header!.length).toBeGreaterThanOrEqual(8);
    for (const light of lights) expect(body.some((cells) => cells.includes(light.name))).toBe(true);

    await page.getByTestId(`emergency-record-light-${lights[0]!.name}`).click();
    await page.getByTestId('emergency-device-history').getByText(TASK).first().waitFor();
    await screenshot(page, 'emergency-device-history');
  });

  it('lists the tests in the log book and downloads it as a PDF whose first page renders', async () => {
    await page.goto(`${site.server.url}/emergency/report?tab=logBook`);
    await page.locator('[data-testid^=emergency-log-row-]').first().waitFor();
    const log = await api(site.server.url, emergencyEndpoints.logBook, { body: { projectId } }, { token });
    expect(log.list.filter((e) => e.type === 'test' && e.result === 'pass').length).toBe(lights.length);
    await page.getByTestId(`emergency-log-type-${log.list[0]!.seq}`).getByText('Test').waitFor();

    // A repair is appended with who recorded it; nothing before it changes.
    await page.getByTestId('emergency-repair').click();
    await page.getByTestId('emergency-repair-light').click();
    await page.locator('.ant-select-item-option').filter({ hasText: lights[0]!.name }).click();
    await page.getByPlaceholder('e.g. Replaced the battery pack').fill('Cleaned the diffuser');
    await page.getByRole('button', { name: 'Save' }).click();
    const repairSeq = log.list[0]!.seq + 1;
    await page.getByTestId(`emergency-log-type-${repairSeq}`).getByText('Repair').waitFor();
    await page.getByTestId(`emergency-log-row-${repairSeq}`).getByText('Cleaned the diffuser').waitFor();
    await page.getByTestId(`emergency-log-row-${repairSeq}`).getByText(who).first().waitFor();
    const after = await api(site.server.url, emergencyEndpoints.logBook, { body: { projectId } }, { token });
    expect(after.list.slice(1)).toEqual(log.list);
    await screenshot(page, 'emergency-log-book');

    const pdf = await download('emergency-log-pdf');
    expect((await readFile(pdf)).subarray(0, 5).toString()).toBe('%PDF-');
    const prefix = join(SCREENSHOT_DIR, 'emergency-log-book-pdf');
    await promisify(execFile)('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', pdf, prefix]);
    expect((await stat(`${prefix}.png`)).size).toBeGreaterThan(5000);

    await page.getByTestId('emergency-tab-compliance').click();
    // Tested this month, never for their duration: overdue for the yearly test only, in red.
    await page.getByTestId(`emergency-compliance-life-${lights[0]!.name}`).and(page.locator('[data-overdue=true]')).waitFor();
    await page.getByTestId(`emergency-compliance-fn-${lights[0]!.name}`).and(page.locator('[data-overdue=false]')).waitFor();
    await screenshot(page, 'emergency-compliance');
  });

  it('shows a duration test that ended in a battery fault as failed in the compliance view and the log book PDF', async () => {
    const failing = lights[1]!;
    await api(site.server.url, gatewayEndpoints.setParams, { body: { id: gatewayId, timezone: SITE_ZONE } }, { token });
    site.fleet.gateways[0]!.emergencyLight(failing.addr).set({ charge: 100, failure: 'battery' });
    const tree = await api(site.server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
    const place = tree.projects.find((p) => p.id === projectId)!.builds[0]!;
    await api(
      site.server.url,
      emergencyEndpoints.save,
      {
        body: {
          name: DURATION_TASK,
          projectId,
          buildId: place.id,
          mapId,
          gatewayId,
          deviceIds: [failing.id],
          test: 'life',
          duration: 5,
          batteryCells: 4,
          lightType: 'maintained',
        },
      },
      { token },
    );
    // Started by hand on the page, so the log book names who started it.
    await page.goto(`${site.server.url}/emergency/set`);
    await page.getByTestId(`emergency-start-${DURATION_TASK}`).click();
    await page.getByTestId('emergency-confirm-start').click();
    // A 5-minute duration test fails halfway: about 15 s of wall time here.
    await poll(async () => (await tasks()).find((t) => t.name === DURATION_TASK)?.status === 'finished', 'the duration test ended', {
      timeoutMs: 90_000,
    });

    await page.goto(`${site.server.url}/emergency/report?tab=compliance`);
    await page
      .getByTestId(`emergency-compliance-state-${failing.name}`)
      .and(page.locator('[data-state=failed]'))
      .getByText('Failed: awaiting repair')
      .waitFor();
    await page
      .getByTestId(`emergency-compliance-life-${failing.name}`)
      .and(page.locator('[data-failed=true]'))
      .getByText('Retest due now')
      .waitFor();
    await page.getByTestId('emergency-compliance-failed').getByText('1', { exact: true }).waitFor();
    await screenshot(page, 'emergency-compliance-failed');
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.getByTestId(`emergency-compliance-state-${failing.name}`).scrollIntoViewIfNeeded();
      await screenshot(page, 'emergency-compliance-failed-phone');
    } finally {
      await page.setViewportSize({ width: 1440, height: 960 });
    }

    const failures = await api(site.server.url, emergencyEndpoints.logBook, { body: { projectId, type: 'failure' } }, { token });
    const failure = failures.list.find((e) => e.deviceId === failing.id)!;
    expect(failure).toMatchObject({ test: 'life', faultCode: 6, buildName, startedBy: who });
    await page.getByTestId('emergency-tab-logBook').click();
    await page.getByTestId(`emergency-log-type-${failure.seq}`).getByText('Failure').waitFor();
    await page.getByTestId(`emergency-log-run-by-${failure.seq}`).getByText(`Started by ${who}`).waitFor();
    await page
      .getByTestId(`emergency-log-duration-${failure.seq}`)
      .getByText(/of 0:05:00$/)
      .waitFor();
    await screenshot(page, 'emergency-log-book-failure');

    const pdf = await download('emergency-log-pdf');
    const { stdout } = await promisify(execFile)('pdftotext', [pdf, '-']);
    // Cells wrap where their column ends: compare without white space.
    const text = stdout.replace(/\s+/g, '');
    const localTime = new Intl.DateTimeFormat('sv-SE', { timeZone: SITE_ZONE, dateStyle: 'short', timeStyle: 'short' }).format(
      new Date(failure.at),
    );
    for (const shown of [
      `Time zone: ${SITE_ZONE}`,
      `Date (${SITE_ZONE})`,
      localTime,
      'Duration test',
      buildName,
      'Failed: Battery fault',
      `Started by: ${who}`,
    ])
      expect(text, `the PDF shows ${shown}`).toContain(shown.replace(/\s+/g, ''));
    const prefix = join(SCREENSHOT_DIR, 'emergency-log-book-pdf-failure');
    await promisify(execFile)('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', pdf, prefix]);
  });

  it('speaks Japanese on detection management, the emergency map and the reports', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    try {
      await page.goto(`${site.server.url}/emergency/set`);
      await page.getByTestId('emergency-tab-tasks').getByText('点検管理').waitFor();
      await page.getByTestId(`emergency-task-result-${TASK}`).getByText('合格').waitFor();
      await screenshot(page, 'emergency-tasks-ja');
      await page.getByTestId('emergency-tab-map').click();
      await page.getByTestId('emergency-legend').getByText('点検中').waitFor();
      await page.locator(`[data-testid=device-canvas][data-drawn="${lights.length}"]`).waitFor();
      await screenshot(page, 'emergency-map-ja');
      await page.goto(`${site.server.url}/emergency/report`);
      await page.getByTestId(`emergency-run-link-${TASK}`).click();
      await page.getByText('点検前電圧 (V)').first().waitFor();
      await screenshot(page, 'emergency-report-ja');
      await page.goto(`${site.server.url}/emergency/report?tab=logBook`);
      await page.getByText('点検記録簿をダウンロード（PDF）').waitFor();
      await page.locator('[data-testid^=emergency-log-row-]').first().waitFor();
      await screenshot(page, 'emergency-log-book-ja');
      const pdf = await download('emergency-log-pdf');
      const prefix = join(SCREENSHOT_DIR, 'emergency-log-book-pdf-ja');
      await promisify(execFile)('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', pdf, prefix]);
      expect((await stat(`${prefix}.png`)).size).toBeGreaterThan(5000);
      await page.getByTestId('emergency-tab-compliance').click();
      await page.getByTestId(`emergency-compliance-state-${lights[1]!.name}`).getByText('不合格：修理待ち').waitFor();
      await screenshot(page, 'emergency-compliance-ja');
    } finally {
      await page.evaluate(() => localStorage.setItem('lang', 'en'));
    }
  });
});
