import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { OPERATE_AUTH, USER_AUTH, authEndpoints, deviceEndpoints, userEndpoints, type GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { followInApp, screenshot } from './support/browser.ts';
import { seriousViolations } from './support/axe.ts';
import type { GatewaySite } from './support/gateways.ts';
import { floorPlanPng, screenAt } from './support/floor-plan.ts';
import { ADMIN_PASSWORD } from './support/server.ts';

// The audit trail's journey: a night guard (a sub-account) switches a light off through the API; the account's
// owner finds who did it in the light's panel on the floor plan, switches it back on there (the panel names the
// owner now), then finds both in System > Audit trail, filtered to the light, and exports them as Excel.

let site: GatewaySite;
let page: Page;
let token: string;
let light: GatewayDevice;
let downloads: string;

const OWNER = { account: 'site-owner', name: 'Site Owner', password: 'Owner-Pass-2026' };
const GUARD = { account: 'night-guard', name: 'Night Guard', password: 'Guard-Pass-2026' };
const journey = gatewayJourney('audit');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const url = site.server.url;
  const admin = await api(url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
  await api(url, userEndpoints.add, { body: { userAuth: USER_AUTH.account, ...OWNER } }, { token: admin.access_token });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Audit gateway',
    floorPlan: floorPlanPng(1000, 600),
    place: (byKind) => [{ id: byKind('light-single').id, x: 0.3, y: 0.4 }],
    signIn: { account: OWNER.account, password: OWNER.password },
  });
  token = placed.token;
  light = placed.devices.find((d) => d.kind === 'light-single')!;
  await api(
    url,
    userEndpoints.add,
    { body: { userAuth: USER_AUTH.subAccount, operateAuth: OPERATE_AUTH.controllable, ...GUARD } },
    { token },
  );
  const guard = await api(url, authEndpoints.login, { body: { account: GUARD.account, password: GUARD.password } });
  await api(url, deviceEndpoints.control, { body: { id: light.id, action: { op: 'onOff', on: false } } }, { token: guard.access_token });
  page = await journey.openPage(placed.login);
  downloads = await mkdtemp(join(tmpdir(), 'lumigrid-audit-'));
}, 120_000);

afterAll(async () => {
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

async function openLight() {
  await page.goto(`${site.server.url}/device/control`);
  await page.getByTestId('floor-plan-map').and(page.locator('[data-state=ready]')).waitFor();
  await page.locator('[data-testid=device-canvas][data-drawn]').waitFor();
  const at = await screenAt(page, { x: 0.3, y: 0.4 });
  await page.mouse.click(at.x, at.y);
  const panel = page.getByTestId('device-panel');
  await panel.getByTestId('device-panel-name').getByText(light.name).waitFor();
  return panel;
}

describe('who switched this light', () => {
  it('names the night guard in the light\u2019s panel, then the account owner after switching it back on there', async () => {
    const panel = await openLight();
    const changes = panel.getByTestId('device-changes');
    await changes.getByText(/^Switched off by hand by Night Guard at /).waitFor();
    await screenshot(page, 'audit-device-panel');

    await panel.getByTestId('device-panel-state').getByText('Off', { exact: true }).waitFor();
    await panel.getByTestId('control-onoff').click();
    await panel.getByTestId('device-panel-state').getByText('On at full load').waitFor();
    // The newest first: the owner's switch above the guard's.
    await poll(async () => (await changes.locator('[data-testid^="device-change-"]').count()) === 2, 'both changes listed', {
      timeoutMs: 25_000,
    });
    const lines = await changes.locator('[data-testid^="device-change-"]').allInnerTexts();
    expect(lines[0]).toMatch(/^Switched on by hand by Site Owner at /);
    expect(lines[1]).toMatch(/^Switched off by hand by Night Guard at /);
  });

  it('lists both in System > Audit trail filtered to the light, with who, from where and the outcome, and exports them', async () => {
    await page.goto(`${site.server.url}/system/audit`);
    await page.getByTestId('audit-filters').waitFor();
    await page.locator('.ant-page-header-heading-title', { hasText: 'Audit trail' }).waitFor();
    await page.getByTestId('audit-filter-target').fill(light.id);
    await page.getByTestId('audit-search').click();
    const rows = page.locator('tr[data-testid^="audit-row-"]');
    await poll(async () => (await rows.count()) === 2, 'the light\u2019s two entries');
    const guardRow = rows.filter({ hasText: 'Night Guard' });
    await guardRow.getByText('Switched off by hand').waitFor();
    await guardRow.getByText('Sub-account · API').waitFor();
    await guardRow.getByText('Done').waitFor();
    const adminRow = rows.filter({ hasText: 'Switched on by hand' });
    await adminRow.getByText('Site Owner').waitFor();
    await adminRow.getByText('Account · web').waitFor();
    await screenshot(page, 'audit-page');
    expect(await seriousViolations(page)).toEqual([]);

    const started = page.waitForEvent('download');
    await page.getByTestId('audit-excel').click();
    const file = await started;
    const path = join(downloads, file.suggestedFilename());
    await file.saveAs(path);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(path);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(1).getCell(2).value).toBe('User');
    expect(sheet.getRow(3).getCell(2).value).toBe('Night Guard');
    expect(sheet.getRow(3).getCell(6).value).toBe('devices.control');
  });

  it('says so, beside the menu, when the audit screen\u2019s code does not arrive, and reloads into it', async () => {
    await page.goto(`${site.server.url}/home`);
    await page.locator('.lg-header[data-page="/home"]').waitFor();
    // The connection drops as the screen is opened: its chunk never arrives.
    const chunk = /\/assets\/audit-page-[^/]*\.js$/;
    await page.route(chunk, (route) => route.abort('internetdisconnected'));
    await followInApp(page, '/system/audit');
    const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
    await alert.waitFor();
    await page.getByRole('menuitem', { name: 'Home' }).waitFor();
    await screenshot(page, 'audit-page-not-loaded');
    expect(await seriousViolations(page)).toEqual([]);

    await page.unroute(chunk);
    await alert.getByRole('button', { name: 'Reload' }).click();
    await page.locator('.lg-header[data-page="/system/audit"]').waitFor();
    await page.getByTestId('audit-excel').waitFor();
  });
});
