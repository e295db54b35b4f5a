import { deflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { authEndpoints, deviceEndpoints, gatewayEndpoints, projectEndpoints } from '@lumigrid/contract';
import type { Gateway, GatewayDevice } from '@lumigrid/contract';
import { ADMIN_PASSWORD } from './support/server.ts';
import { api, poll } from './support/api.ts';
import { openBrowser, recordApiCalls, reportFailure, screenshot, storeSession, type TestBrowser } from './support/browser.ts';
import { startGatewaySite, type GatewaySite } from './support/gateways.ts';

// Issue 5's telemetry: the simulated gateway's up/telemetry shows in the device panel of the floor plan,
// with units, only the fields the device measures.

let site: GatewaySite;
let browser: TestBrowser;
let page: Page;
let token: string;
let mapId: string;
let gateway: Gateway;
let devices: GatewayDevice[];
let journal: string[] = [];

const sim = () => site.fleet.gateways[0]!;
const byKind = (kind: string) => devices.find((d) => d.kind === kind)!;
const markers = () => api(site.server.url, deviceEndpoints.markers, { query: { mapId: mapId } }, { token });
const detail = (id: string) => api(site.server.url, deviceEndpoints.detail, { params: { mapId, id } }, { token });

beforeAll(async () => {
  site = await startGatewaySite({ count: 1 });
  const login = await api(site.server.url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
  token = login.access_token;
  const tree = await api(site.server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
  mapId = tree.projects.find((p) => p.isDefault)!.builds[0]!.maps[0]!.id;
  const form = new FormData();
  form.append('id', mapId);
  form.append('file', new Blob([new Uint8Array(plainPng(800, 500))], { type: 'image/png' }), 'plan.png');
  const upload = await fetch(`${site.server.url}/api4/map/v1/upload_map`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(((await upload.json()) as { code: number }).code).toBe(0);
  gateway = await api(site.server.url, gatewayEndpoints.bind, { body: { mac: sim().mac, mapId, name: 'Metered gateway' } }, { token });
  await site.start();
  await poll(async () => (await api(site.server.url, gatewayEndpoints.list, {}, { token })).list[0]?.online === true, 'gateway online');
  await api(site.server.url, gatewayEndpoints.importDevices, { params: { id: gateway.id } }, { token });
  devices = await api(site.server.url, gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gateway.id } }, { token });
  await api(
    site.server.url,
    deviceEndpoints.moveIn,
    {
      body: {
        mapId,
        devices: [
          { id: byKind('light-dimmer').id, x: 0.3, y: 0.4 },
          { id: byKind('sensor-daylight').id, x: 0.6, y: 0.6 },
        ],
      },
    },
    { token },
  );
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

  browser = await openBrowser();
  page = browser.page;
  page.setDefaultTimeout(20_000);
  journal = recordApiCalls(page);
  await storeSession(page, site.server.url, login);
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail')
    await reportFailure(page, 'device-telemetry', context.task.name, journal, site.server.output().slice(-3000));
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function screenAt(p: Page, position: { x: number; y: number }) {
  const box = await p.locator('img.lg-floor-plan-image').boundingBox();
  if (!box) throw new Error('no floor plan on screen');
  return { x: box.x + position.x * box.width, y: box.y + position.y * box.height };
}

describe('device telemetry in the device panel', () => {
  it('shows a light\u2019s voltage, current, power and energy, and a sensor\u2019s lux without electrical values', async () => {
    await page.goto(`${site.server.url}/device/control`);
    await page.getByTestId('floor-plan-map').and(page.locator('[data-state=ready]')).waitFor();
    await page.locator(`[data-testid=device-canvas][data-drawn="3"]`).waitFor();
    const light = await detail(byKind('light-dimmer').id);

    const at = await screenAt(page, { x: 0.3, y: 0.4 });
    await page.mouse.click(at.x, at.y);
    const panel = page.getByTestId('device-panel');
    await panel.getByTestId('device-panel-name').getByText(light.name).waitFor();
    const telemetry = panel.getByTestId('device-telemetry');
    await telemetry.getByText('Telemetry').waitFor();
    expect(await telemetry.getByTestId('telemetry-voltage').textContent()).toBe('230 V');
    expect(await telemetry.getByTestId('telemetry-power').textContent()).toBe(
      `${Number(light.power!.toFixed(1)).toLocaleString('en-US', { maximumFractionDigits: 1 })} W`,
    );
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
    expect(await panel.getByTestId('telemetry-illumination').textContent()).toBe(`${sensor.illumination} lx`);
    expect(await panel.getByTestId('telemetry-voltage').count()).toBe(0);
    expect(await panel.getByTestId('telemetry-power').count()).toBe(0);
  });
});

/** A plain light-grey PNG floor plan, encoded here so the test needs no files. */
function plainPng(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height, 0xee);
  for (let y = 0; y < height; y++) raw[y * (width * 3 + 1)] = 0;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
