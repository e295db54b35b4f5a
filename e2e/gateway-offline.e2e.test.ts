import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { alertEndpoints, deviceEndpoints, gatewayEndpoints, type DeviceMarker } from '@lumigrid/contract';
import { DISPLAY_FILL } from '../apps/web/src/components/device-markers/marker-model.ts';
import { api, poll } from './support/api.ts';
import { screenshot } from './support/browser.ts';
import { MARKER_COLOUR, colourAt, floorPlanPng, screenAt } from './support/floor-plan.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import type { GatewaySite } from './support/gateways.ts';

// A gateway that goes away takes its devices with it: once it is offline, the floor plan and the device list
// show every device behind it offline instead of the last state it reported. Before that, the panel of its
// single-colour light says it does not dim and shows how old its measurements are.

/** The server raises the offline alert after this long (OFFLINE_GRACE_S), so the journey does not wait a minute. */
const GRACE_S = 2;

let site: GatewaySite;
let page: Page;
let token: string;
let mapId: string;
let gatewayId: string;
let placedIds: string[];

const journey = gatewayJourney('gateway-offline');
const markers = (): Promise<DeviceMarker[]> => api(site.server.url, deviceEndpoints.markers, { query: { mapId } }, { token });

beforeAll(async () => {
  site = await journey.startSite({ count: 1, env: { OFFLINE_GRACE_S: String(GRACE_S) } });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Annex gateway',
    floorPlan: floorPlanPng(800, 500),
    place: (byKind) => [
      { id: byKind('light-single').id, x: 0.2, y: 0.3 },
      { id: byKind('light-dimmer').id, x: 0.55, y: 0.3 },
      { id: byKind('switch-1').id, x: 0.85, y: 0.75 },
    ],
  });
  ({ token, mapId } = placed);
  gatewayId = placed.gateway.id;
  placedIds = (await markers()).map((m) => m.id);
  const light = placed.devices.find((d) => d.kind === 'light-single')!;
  await api(site.server.url, deviceEndpoints.control, { body: { id: light.id, action: { op: 'onOff', on: true } } }, { token });
  await api(site.server.url, gatewayEndpoints.reReport, { params: { id: gatewayId } }, { token });
  await poll(async () => (await markers()).every((m) => m.status !== '' && m.display !== 'offline'), 'every placed device reported');
  page = await journey.openPage(placed.login);
}, 120_000);

describe('a gateway going offline in a real browser', () => {
  it('turns its devices offline on the floor plan and in the device list', async () => {
    await page.goto(`${site.server.url}/device/control`);
    await page.getByTestId('floor-plan-map').and(page.locator('[data-state=ready]')).waitFor();
    await page.locator(`[data-testid=device-canvas][data-drawn="${placedIds.length}"]`).waitFor();
    const light = await screenAt(page, { x: 0.2, y: 0.3 });
    const dimmer = await screenAt(page, { x: 0.55, y: 0.3 });
    expect(await colourAt(page, light)).toBe(MARKER_COLOUR.onFull);

    // What the light measured is shown with its age, fresh while its gateway reports.
    site.fleet.gateways[0]!.reportTelemetry();
    await poll(
      async () =>
        (await api(site.server.url, deviceEndpoints.list, { body: { pageSize: 200 } }, { token })).list.some((d) => d.telemetryAt),
      'a telemetry sample',
    );
    await page.mouse.click(light.x, light.y);
    const panel = page.getByTestId('device-panel');
    await panel.getByTestId('device-panel-switch-only').waitFor();
    await panel.getByTestId('telemetry-age').getByText(/ago$/).waitFor();
    expect(await panel.getByTestId('telemetry-age-stale').count()).toBe(0);
    await screenshot(page, 'device-panel-telemetry-age');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });

    await site.fleet.gateways[0]!.stop();
    // Drawn hollow (the offline fill), live, without reloading the page.
    await poll(async () => (await colourAt(page, light)) === DISPLAY_FILL.offline, 'the light drawn offline');
    await poll(async () => (await colourAt(page, dimmer)) === DISPLAY_FILL.offline, 'the dimmer drawn offline');
    expect((await markers()).map((m) => m.display)).toEqual(placedIds.map(() => 'offline'));
    await screenshot(page, 'gateway-offline-plan');

    // Past the grace period the gateway's offline alert is raised; the devices stay offline.
    await poll(
      async () => (await api(site.server.url, alertEndpoints.page, { body: { open: true } }, { token })).total > 0,
      'the gateway offline alert',
    );
    await page.goto(`${site.server.url}/device/list/status`);
    const rows = page.locator('.ant-table-row');
    await rows.first().waitFor();
    const total = (await api(site.server.url, deviceEndpoints.list, { body: { pageSize: 200 } }, { token })).total;
    await poll(async () => (await rows.count()) === Math.min(total, 20), 'the first page');
    for (const row of await rows.all()) await row.getByText('Offline', { exact: true }).first().waitFor();
    expect(await rows.getByText('On at full load', { exact: true }).count()).toBe(0);
    expect(await rows.getByText('Online', { exact: true }).count()).toBe(0);
    await screenshot(page, 'gateway-offline-list');
  });
});
