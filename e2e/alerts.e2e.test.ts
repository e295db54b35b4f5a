import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { alertEndpoints, projectEndpoints } from '@lumigrid/contract';
import type { GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';

// The fault list: an LED fault raised on a simulated light shows in /alert/list, is marked handled with a note
// from the batch action, and the page speaks Japanese.

let site: GatewaySite;
let page: Page;
let token: string;
let projectId: string;
let light: GatewayDevice;

const NOTE = 'Replaced the LED driver';

const journey = gatewayJourney('alerts');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Floor gateway',
    place: (find) => [{ id: find('light-single').id, x: 0.3, y: 0.3 }],
  });
  const { login } = placed;
  token = placed.token;
  light = placed.devices.find((d) => d.kind === 'light-single')!;
  const tree = await api(site.server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
  projectId = tree.projects.find((p) => p.isDefault)!.id;

  page = await journey.openPage(login);
}, 120_000);

const alerts = () => api(site.server.url, alertEndpoints.page, { body: { projectId } }, { token });

describe('the fault list in a real browser', () => {
  it('lists an LED fault and marks it handled with a note', async () => {
    site.fleet.gateways[0]!.raiseFault(light.addr, 8);
    await poll(async () => (await alerts()).list.some((a) => a.deviceId === light.id && a.code === 8), 'the LED fault raised');

    await page.goto(`${site.server.url}/alert/list`);
    const row = page.getByTestId(`alert-row-${light.name}`);
    await row.getByText('LED fault').waitFor();
    await row.getByText('Floor gateway').waitFor();
    await row.getByText('Ongoing').waitFor();
    await row.getByTestId('alert-state').getByText('Pending').waitFor();
    await page.getByRole('menuitem', { name: /Fault list/ }).waitFor();

    await row.locator('.ant-checkbox-input').check();
    await page.getByText('1 selected').waitFor();
    await page.getByTestId('alerts-handle').click();
    await page.getByTestId('alerts-note').fill(NOTE);
    await page.getByTestId('alerts-handle-ok').click();
    await page.locator('.ant-message').getByText('Faults marked handled: 1').waitFor();

    await row.getByTestId('alert-state').getByText('Handled').waitFor();
    await row.getByTestId('alert-note').getByText(NOTE).waitFor();
    await row.getByText('admin').first().waitFor();
    const stored = (await alerts()).list.find((a) => a.deviceId === light.id)!;
    expect(stored).toMatchObject({ state: 'handled', note: NOTE, code: 8 });
    await screenshot(page, 'alerts-list');
  });

  it('speaks Japanese on the fault list', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    try {
      await page.goto(`${site.server.url}/alert/list`);
      const row = page.getByTestId(`alert-row-${light.name}`);
      await row.getByText('LED故障').waitFor();
      await row.getByText('対応済み').waitFor();
      await page.getByText('故障一覧').first().waitFor();
      await screenshot(page, 'alerts-list-ja');
    } finally {
      await page.evaluate(() => localStorage.setItem('lang', 'en'));
    }
  });
});
