import { createServer, type AddressInfo } from 'node:net';
import { authEndpoints, deviceEndpoints, gatewayEndpoints, mapEndpoints, projectEndpoints, type GatewayDevice } from '@lumigrid/contract';
import { Z2mBridge, Z2mStandIn } from '@lumigrid/z2m-bridge';
import { Aedes } from 'aedes';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, poll } from './support/api.ts';
import { screenshot } from './support/browser.ts';
import { MARKER_COLOUR, colourAt, floorPlanPng, screenAt } from './support/floor-plan.ts';
import type { GatewaySite } from './support/gateways.ts';
import { gatewayJourney } from './support/journey.ts';
import { ADMIN_PASSWORD } from './support/server.ts';

// Issue 30's journey: a light of a Zigbee2MQTT installation, through the bridge, switched and dimmed from the
// floor plan; the stand-in receives Zigbee2MQTT /set payloads and the marker follows the device's state.

const journey = gatewayJourney('z2m-bridge');
let site: GatewaySite;
let page: Page;
let token: string;
let mapId: string;
let devices: GatewayDevice[];
let standIn: Z2mStandIn;
let bridge: Z2mBridge;
const zigbee = { close: async () => undefined as void };

const HUE_AT = { x: 0.35, y: 0.4 };
const setsTo = (name: string) => standIn.received.filter((s) => s.target === name).map((s) => s.payload);
const byModel = (model: string) => devices.find((d) => d.model === model)!;

beforeAll(async () => {
  // The site's simulated gateway never connects: the bridge takes its MAC and password, provisioned alike.
  site = await journey.startSite({ count: 1 });
  const url = site.server.url;
  const mac = site.fleet.gateways[0]!.mac;
  const broker = await Aedes.createBroker();
  const server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  zigbee.close = async () => {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const z2mUrl = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn = new Z2mStandIn({ url: z2mUrl });
  await standIn.start();
  bridge = new Z2mBridge({ mac, password: `pw-${mac}`, url: site.mqttUrl, z2mUrl });
  await bridge.start();

  const login = await api(url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
  token = login.access_token;
  const tree = await api(url, projectEndpoints.tree, { params: { id: '0' } }, { token });
  mapId = tree.projects.find((p) => p.isDefault)!.builds[0]!.maps[0]!.id;
  const form = new FormData();
  form.append('id', mapId);
  form.append('file', new Blob([new Uint8Array(floorPlanPng(1000, 600))], { type: 'image/png' }), 'plan.png');
  await api(url, mapEndpoints.upload, { body: form }, { token });
  const gateway = await api(url, gatewayEndpoints.bind, { body: { mac, mapId, name: 'Zigbee2MQTT' } }, { token });
  await poll(async () => (await api(url, gatewayEndpoints.list, {}, { token })).list[0]?.online === true, 'the bridge online');
  await api(url, gatewayEndpoints.importDevices, { params: { id: gateway.id } }, { token });
  devices = await api(url, gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gateway.id } }, { token });
  await api(url, deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: byModel('9290022169').id, ...HUE_AT }] } }, { token });
  page = await journey.openPage(login);
}, 120_000);

afterAll(async () => {
  await bridge?.stop();
  await standIn?.stop();
  await zigbee.close();
});

describe('a bridged Zigbee light on the floor plan', () => {
  it('switches it on and dims it from the panel: Zigbee2MQTT gets /set payloads and the marker follows the light', async () => {
    const hue = byModel('9290022169');
    await page.goto(`${site.server.url}/device/control`);
    await page.getByTestId('floor-plan-map').and(page.locator('[data-state=ready]')).waitFor();
    await page.locator('[data-testid=device-canvas][data-drawn="1"]').waitFor();
    const at = await screenAt(page, HUE_AT);
    await poll(async () => (await colourAt(page, at)) === MARKER_COLOUR.off, 'the light drawn off');

    await page.mouse.click(at.x, at.y);
    const panel = page.getByTestId('device-panel');
    await panel.getByTestId('device-panel-name').getByText(hue.name).waitFor();
    await panel.getByTestId('control-onoff').click();
    await poll(() => setsTo('Hall ceiling').length === 1, 'the /set of the switch');
    expect(setsTo('Hall ceiling')[0]).toEqual({ state: 'ON' });
    await poll(async () => (await colourAt(page, at)) === MARKER_COLOUR.onFull, 'the marker drawn on at full load');

    const rail = (await panel.getByTestId('control-brightness').locator('.ant-slider').boundingBox())!;
    await page.mouse.click(rail.x + rail.width / 2, rail.y + rail.height / 2);
    await poll(() => setsTo('Hall ceiling').some((p) => typeof p.brightness === 'number'), 'the /set of the dimming');
    const dimmed = setsTo('Hall ceiling').find((p) => typeof p.brightness === 'number')!;
    expect(dimmed.state).toBe('ON');
    expect(dimmed.brightness).toBeGreaterThan(80);
    expect(dimmed.brightness).toBeLessThan(175);
    await poll(async () => (await colourAt(page, at)) === MARKER_COLOUR.onPartial, 'the marker drawn dimmed');
    await screenshot(page, 'z2m-bridge-dimmed');
  });
});
