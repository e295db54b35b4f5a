import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deviceEndpoints, gatewayEndpoints, groupEndpoints, projectEndpoints } from '@lumigrid/contract';
import type { Gateway, GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';

// Issue 5's device list and configuration journey: the list and status views with filters, a sensor's
// parameters read from the device, an out-of-range value refused with the spec's message, a change saved to
// the device, a batch type change, and a deletion whose gateway never answers, confirmed by the user.

let site: GatewaySite;
let page: Page;
let token: string;
let mapId: string;
let gateway: Gateway;
let devices: GatewayDevice[];

const sim = () => site.fleet.gateways[0]!;
const byKind = (kind: string) => devices.find((d) => d.kind === kind)!;
const simDevice = (kind: string) => sim().devices.get(byKind(kind).addr.toUpperCase());
const message = (text: string | RegExp) => page.locator('.ant-message').getByText(text);
const listAll = () => api(site.server.url, deviceEndpoints.list, { body: { pageSize: 200 } }, { token });

const journey = gatewayJourney('device-list');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Hall gateway',
    place: (_byKind, all) => all.slice(0, 6).map((d, i) => ({ id: d.id, x: 0.1 + i / 10, y: 0.5 })),
  });
  const { login } = placed;
  ({ token, mapId, gateway, devices } = placed);
  await api(
    site.server.url,
    deviceEndpoints.control,
    { body: { id: byKind('light-dimmer').id, action: { op: 'brightness', percent: 40 } } },
    { token },
  );
  await api(site.server.url, gatewayEndpoints.reReport, { params: { id: gateway.id } }, { token });
  await poll(async () => (await listAll()).list.every((d) => d.lastUpdate !== null), 'every device reported');

  page = await journey.openPage(login);
}, 120_000);

describe('device list and configuration in a real browser with a simulated gateway', () => {
  it('lists every device with its gateway and firmware, filters by type, and shows the status view', async () => {
    await page.goto(`${site.server.url}/device/list`);
    await page.waitForURL(/\/device\/list\/list$/);
    const rows = page.locator('.ant-table-row');
    await rows.first().waitFor();
    const total = (await listAll()).total;
    expect(total).toBe(devices.length);
    await poll(async () => (await rows.count()) === Math.min(total, 20), 'the first page');
    const motion = rows.filter({ hasText: byKind('sensor-motion').addr });
    await page.getByPlaceholder('Part of the name or MAC').fill(byKind('sensor-motion').addr.slice(-6));
    await page.getByRole('button', { name: /Query|Search/ }).click();
    await poll(async () => (await rows.count()) === 1, 'one row after filtering');
    await motion.getByText('Motion sensor', { exact: true }).waitFor();
    await motion.getByText('Hall gateway').waitFor();
    await motion.getByText('1.0.0').waitFor();
    await screenshot(page, 'device-list-filtered');
    await page.getByRole('button', { name: /Reset/ }).click();
    await poll(async () => (await rows.count()) === Math.min(total, 20), 'the first page again');
    await screenshot(page, 'device-list');

    // The gateway's telemetry (up/telemetry) fills the status view's measurements.
    sim().reportTelemetry();
    await poll(
      async () => (await listAll()).list.find((d) => d.id === byKind('light-dimmer').id)?.voltage === 230,
      'the dimmer telemetry stored',
    );
    const metered = (await listAll()).list.find((d) => d.id === byKind('light-dimmer').id)!;
    expect(metered.power).toBeGreaterThan(1);
    await page.getByText('Status', { exact: true }).click();
    await page.waitForURL(/\/device\/list\/status$/);
    const dimmer = rows.filter({ hasText: byKind('light-dimmer').name });
    await dimmer.getByText('On, not at full load').waitFor();
    await page.getByRole('columnheader', { name: 'Readings' }).waitFor();
    await dimmer.getByTestId('reading-voltage').getByText('230 V', { exact: true }).waitFor();
    await dimmer
      .getByTestId('reading-power')
      .getByText(`${Math.round(metered.power! * 100) / 100} W`, { exact: true })
      .waitFor();
    // A light has no lux reading, so none is written for it.
    expect(await dimmer.getByTestId('reading-illumination').count()).toBe(0);
    await rows.first().getByText('Online').waitFor();
    await screenshot(page, 'device-status');
  });

  it('reads a sensor\u2019s parameters from the device, refuses a value out of range, and saves a good one', async () => {
    await page.goto(`${site.server.url}/device/config/list`);
    await page.getByTestId(`configure-${byKind('sensor-motion').addr}`).click();
    await page.waitForURL(/\/device\/config\/detail\?id=/);
    await page.getByText('Not read yet').waitFor();
    await page.getByTestId('params-read').click();
    await message('Read from the device').waitFor();
    const hold = page.getByTestId('param-holdTime');
    expect(await hold.inputValue()).toBe('60');
    await hold.fill('15');
    await page.getByTestId('params-save').click();
    await page.getByText('Hold time must be 10-2540 and a multiple of 10').waitFor();
    await page.getByTestId('param-lux').fill('4001');
    await page.getByTestId('param-sensingCount').click();
    await page.getByText('Lux must be 0-4000').waitFor();
    await screenshot(page, 'device-config-refused');
    // Nothing reached the device.
    expect(simDevice('sensor-motion')?.params?.holdTime).toBe(60);

    await hold.fill('120');
    await page.getByTestId('param-lux').fill('800');
    await page.getByTestId('params-save').click();
    await message('The device runs the new parameters').waitFor();
    expect(simDevice('sensor-motion')?.params).toMatchObject({ holdTime: 120, lux: 800 });
    await page.getByTestId('sensing-off').click();
    await message('The sensor took the command').waitFor();
    expect(simDevice('sensor-motion')?.sensing).toBe(false);
    await screenshot(page, 'device-config-saved');
  });

  it('changes the type of two lights in one go', async () => {
    await page.goto(`${site.server.url}/device/config/list`);
    const rows = page.locator('.ant-table-row');
    for (const kind of ['light-single', 'light-dimmer']) {
      await rows
        .filter({ hasText: byKind(kind).addr })
        .locator('.ant-checkbox-input')
        .check();
    }
    await page.getByTestId('batch-type').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Change the type of 2 devices').waitFor();
    await dialog.getByTestId('batch-type-target').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Colour-temperature light' }).click();
    await screenshot(page, 'device-config-batch-type');
    await dialog.getByRole('button', { name: 'Change type' }).click();
    await message('2 devices now have the new type').waitFor();
    expect(simDevice('light-single')?.state.kind).toBe('light-cct');
    await rows
      .filter({ hasText: byKind('light-single').addr })
      .getByText('Colour-temperature light')
      .waitFor();
  });

  it('deletes a device whose gateway never answers once the user confirms', async () => {
    const panel = byKind('panel-smart');
    sim().faults.noReply = new Set(['device.remove']);
    try {
      await page.goto(`${site.server.url}/device/config/detail?id=${panel.id}`);
      await page.getByTestId('device-delete').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('From the gateway as well').click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.locator('.ant-modal-confirm');
      await confirm.getByText('Device deletion failed, confirm to continue deleting this device').waitFor();
      await screenshot(page, 'device-delete-failed');
      expect((await listAll()).list.map((d) => d.id)).toContain(panel.id);
      await confirm.getByRole('button', { name: 'Delete anyway' }).click();
      await page.waitForURL(/\/device\/config\/list$/);
      await message(`${panel.name} was deleted`).waitFor();
    } finally {
      sim().faults.noReply = false;
    }
    expect((await listAll()).list.map((d) => d.id)).not.toContain(panel.id);
  });

  it('speaks Japanese on the list, with the spec\u2019s message for a value out of range', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    await page.goto(`${site.server.url}/device/config/detail?id=${byKind('curtain').id}`);
    await page.getByTestId('params-read').click();
    await message('デバイスから読み取りました').waitFor();
    await page.getByTestId('param-curtainRunTime').fill('255');
    await page.getByTestId('params-save').click();
    await page.getByText('カーテン動作時間は10～254で入力してください').waitFor();
    await screenshot(page, 'device-config-ja');
    await page.goto(`${site.server.url}/device/list/list`);
    await page.locator('.ant-table-row').first().waitFor();
    await page.locator('.ant-page-header-heading-title').getByText('デバイス一覧').waitFor();
    await page.locator('.ant-table-thead').getByText('ファームウェア').waitFor();
    await screenshot(page, 'device-list-ja');
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
  });

  it('filters the list by a group of the chosen map', async () => {
    const placed = (await listAll()).list.filter((d) => d.mapId === mapId);
    const lights = placed.filter((d) => devices.find((g) => g.id === d.id)?.kind.startsWith('light-'));
    expect(lights.length).toBeGreaterThan(0);
    const members = lights.slice(0, 2);
    const group = await api(
      site.server.url,
      groupEndpoints.add,
      { body: { mapId, gatewayId: gateway.id, name: 'Front row', deviceIds: members.map((d) => d.id) } },
      { token },
    );
    const tree = await api(site.server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
    const project = tree.projects.find((p) => p.isDefault)!;
    const build = project.builds[0]!;
    const map = build.maps[0]!;

    await page.goto(`${site.server.url}/device/list/list`);
    const rows = page.locator('.ant-table-row');
    await rows.first().waitFor();
    const groupSelect = page.getByTestId('device-list-group');
    // Until a map is chosen, there are no groups to choose from.
    expect(await groupSelect.locator('input').isDisabled()).toBe(true);
    await page.locator('.ant-pro-query-filter .ant-cascader').click();
    for (const name of [project.name, build.name, map.name])
      await page.locator('.ant-cascader-menu-item').filter({ hasText: name }).first().click();
    await poll(async () => !(await groupSelect.locator('input').isDisabled()), 'the group filter enabled');
    await groupSelect.click();
    await page.locator('.ant-select-item-option').filter({ hasText: group.name }).click();
    await page.getByRole('button', { name: /Query|Search/ }).click();
    await poll(async () => (await rows.count()) === members.length, 'only the group members');
    for (const d of members) await rows.filter({ hasText: d.addr }).first().waitFor();
    await screenshot(page, 'device-list-group-filter');
  });
});
