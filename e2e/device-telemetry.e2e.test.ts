import { encodePng } from '../apps/server/src/test/png.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deviceEndpoints, gatewayEndpoints } from '@lumigrid/contract';
import type { Gateway, GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';
import { screenAt } from './support/floor-plan.ts';

// Issue 5's telemetry: the simulated gateway's up/telemetry shows in the device panel of the floor plan,
// with units, only the fields the device measures.

let site: GatewaySite;
let page: Page;
let token: string;
let mapId: string;
let gateway: Gateway;
let devices: GatewayDevice[];

const sim = () => site.fleet.gateways[0]!;
const byKind = (kind: string) => devices.find((d) => d.kind === kind)!;
const markers = () => api(site.server.url, deviceEndpoints.markers, { query: { mapId: mapId } }, { token });
const detail = (id: string) => api(site.server.url, deviceEndpoints.detail, { params: { mapId, id } }, { token });

const journey = gatewayJourney('device-telemetry');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Metered gateway',
    floorPlan: encodePng(800, 500, () => [0xee, 0xee, 0xee]),
    place: (byKind) => [
      { id: byKind('light-dimmer').id, x: 0.3, y: 0.4 },
      { id: byKind('sensor-daylight').id, x: 0.6, y: 0.6 },
    ],
  });
  const { login } = placed;
  ({ token, mapId, gateway, devices } = placed);
  await api(
    site.server.url,
    deviceEndpoints.control,
    { body: { id: byKind('light-dimmer').id, action: { op: 'brightness', percent: 50 } } },
    { token },
  );
  await api(site.server.url, gatewayEndpoints.reReport, { params: { id: gateway.id } }, { token });
  await poll(async () => (await markers()).every((m) => m.status !== ''), 'every placed device reported');
  sim().reportTelemetry();
  await poll(async () => (await detail(byKind('light-dimmer').id)).voltage === 230, 'the dimmer telemetry stored');
  await poll(async () => (await detail(byKind('sensor-daylight').id)).illumination !== null, 'the daylight sensor telemetry stored');

  page = await journey.openPage(login);
}, 120_000);

describe('device telemetry in the device panel', () => {
  it('shows a light\u2019s voltage, current, power and energy, and a sensor\u2019s lux without electrical values', async () => {
    await page.goto(`${site.server.url}/device/control`);
    await page.getByTestId('floor-plan-map').and(page.locator('[data-state=ready]')).waitFor();
    // The two placed devices (the gateway is not placed on this plan).
    await page.locator(`[data-testid=device-canvas][data-drawn="2"]`).waitFor();
    const light = await detail(byKind('light-dimmer').id);

    const at = await screenAt(page, { x: 0.3, y: 0.4 });
    await page.mouse.click(at.x, at.y);
    const panel = page.getByTestId('device-panel');
    await panel.getByTestId('device-panel-name').getByText(light.name).waitFor();
    const telemetry = panel.getByTestId('device-telemetry');
    await telemetry.getByText('Telemetry').waitFor();
    await expect.poll(() => telemetry.getByTestId('telemetry-voltage').textContent()).toBe('230 V');
    await expect
      .poll(() => telemetry.getByTestId('telemetry-power').textContent())
      .toBe(`${Number(light.power!.toFixed(1)).toLocaleString('en-US', { maximumFractionDigits: 1 })} W`);
    await telemetry.getByTestId('telemetry-current').waitFor();
    await telemetry.getByTestId('telemetry-energyWh').waitFor();
    expect(await telemetry.getByTestId('telemetry-battery').count()).toBe(0);
    await screenshot(page, 'device-panel-telemetry');

    await panel.locator('.ant-drawer-close').click();
    await panel.waitFor({ state: 'hidden' });
    const sensorAt = await screenAt(page, { x: 0.6, y: 0.6 });
    await page.mouse.click(sensorAt.x, sensorAt.y);
    const sensor = await detail(byKind('sensor-daylight').id);
    await panel.getByTestId('device-panel-name').getByText(sensor.name).waitFor();
    await expect.poll(() => panel.getByTestId('telemetry-illumination').textContent()).toBe(`${sensor.illumination} lx`);
    expect(await panel.getByTestId('telemetry-voltage').count()).toBe(0);
    expect(await panel.getByTestId('telemetry-power').count()).toBe(0);
  });
});
