import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deviceEndpoints, gatewayEndpoints, groupEndpoints, sceneEndpoints } from '@lumigrid/contract';
import type { Gateway, GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { floorPlanPng } from './support/floor-plan.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';

// A motion sensor linked to a group with the form's defaults (no daylight target: switch on whatever the
// daylight) reaches its gateway without anyone pressing sync, and someone walking past switches the group on
// even in bright daylight.

let site: GatewaySite;
let page: Page;
let token: string;
let mapId: string;
let gateway: Gateway;
let devices: GatewayDevice[];

const byKind = (kind: string) => devices.find((d) => d.kind === kind)!;
const PLACED: Array<[kind: string, x: number, y: number]> = [
  ['light-dimmer', 0.3, 0.3],
  ['light-cct', 0.5, 0.3],
  ['sensor-motion', 0.4, 0.7],
];
const markers = () => api(site.server.url, deviceEndpoints.markers, { query: { mapId } }, { token });
const markerOf = async (kind: string) => (await markers()).find((m) => m.id === byKind(kind).id)!;
const sim = () => site.fleet.gateways[0]!;

const journey = gatewayJourney('sensor-linkage');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Corridor gateway',
    floorPlan: floorPlanPng(1000, 600),
    place: (find) => PLACED.map(([kind, x, y]) => ({ id: find(kind).id, x, y })),
  });
  ({ token, mapId, gateway, devices } = placed);
  await api(
    site.server.url,
    groupEndpoints.add,
    { body: { mapId, gatewayId: gateway.id, name: 'Corridor lights', deviceIds: [byKind('light-dimmer').id, byKind('light-cct').id] } },
    { token },
  );
  await api(site.server.url, gatewayEndpoints.sync, { params: { id: gateway.id } }, { token });
  // The gateway's sensors drive the configured linkage (the gateway page's Sensors menu does the same).
  await api(site.server.url, gatewayEndpoints.sensorsLinkage, { params: { id: gateway.id } }, { token });
  await api(site.server.url, gatewayEndpoints.reReport, { params: { id: gateway.id } }, { token });
  await poll(async () => (await markers()).every((m) => m.status !== ''), 'every placed device reported');
  page = await journey.openPage(placed.login);
}, 120_000);

describe('a sensor linkage with no daylight target in a real browser', () => {
  it('is saved with the form defaults, reaches the gateway by itself, and motion switches the group on', async () => {
    await page.goto(`${site.server.url}/device/group`);
    const card = page.getByTestId('sensor-linkage');
    await card.getByText('No sensor drives a group of this map yet.').waitFor();
    await card.getByTestId('linkage-add').click();
    const modal = page.getByTestId('linkage-modal');
    await modal.getByTestId('linkage-sensor').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: byKind('sensor-motion').name })
      .first()
      .click();
    await modal.getByTestId('linkage-group').getByText('Corridor lights').waitFor();
    // The simulated clock runs fast: the longest hold, and a low level after it, keep the group on to be seen.
    const hold = modal.getByTestId('linkage-hold');
    await hold.fill('2540');
    await hold.blur();
    await modal.getByTestId('linkage-clear').locator('input').fill('10');
    // The daylight target is left as the form has it: off ("always").
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page
      .locator('.ant-message')
      .getByText(`${byKind('sensor-motion').name} now drives Corridor lights`)
      .waitFor();

    const [stored] = await api(site.server.url, sceneEndpoints.linkages, { params: { mapId } }, { token });
    expect(stored).toMatchObject({ sensorId: byKind('sensor-motion').id, holdS: 2540, onClearPercent: 10, lux: null });
    const row = card.getByTestId(`linkage-row-${byKind('sensor-motion').name}`);
    await row.getByText('Always').waitFor();

    // No sync pressed: the gateway is sent the linkage shortly after the save, and the row says so.
    await poll(
      async () => (await api(site.server.url, sceneEndpoints.linkages, { params: { mapId } }, { token }))[0]?.onGateway === true,
      'the linkage on the gateway',
      { timeoutMs: 30_000 },
    );
    await page.reload();
    await row.getByText('Synced').waitFor();
    expect(sim().config.linkages).toEqual([expect.not.objectContaining({ luxAbove: expect.anything() })]);
    await screenshot(page, 'linkage-always-synced');

    // Bright daylight, lights off, someone walks past: with no daylight target the group switches on.
    for (const kind of ['light-dimmer', 'light-cct']) sim().devices.get(byKind(kind).addr)!.state.on = false;
    sim().devices.get(byKind('sensor-motion').addr)!.state.lux = 800;
    sim().reportAll();
    await poll(async () => (await markerOf('light-dimmer')).display === 'off', 'the group reported off');
    expect(sim().detectMotion(byKind('sensor-motion').addr)).toBe(true);
    await poll(
      async () => ['light-dimmer', 'light-cct'].every((kind) => sim().devices.get(byKind(kind).addr)!.state.on),
      'the group switched on by the sensor',
    );
    sim().reportAll();
    await poll(async () => (await markerOf('light-dimmer')).display !== 'off', 'the group reported on');

    await page.reload();
    await page
      .getByTestId('group-row-Corridor lights')
      .getByText(/^On(,| at)/)
      .waitFor();
    await page.getByTestId('group-row-Corridor lights').getByTestId('group-open').click();
    const drawer = page.getByTestId('group-control');
    await poll(
      async () =>
        (await drawer
          .getByTestId('group-members')
          .getByText(/^On(,| at)/)
          .count()) === 2,
      'both members shown on',
      { timeoutMs: 30_000 },
    );
    await screenshot(page, 'linkage-motion-group-on');
  });
});
