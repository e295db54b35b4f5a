import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { authEndpoints, deviceEndpoints, gatewayEndpoints, projectEndpoints, type DeviceMarker } from '@lumigrid/contract';
import { gatewayQrText } from '@lumigrid/protocol';
import { api, poll } from './support/api.ts';
import { gatewayJourney, uploadFloorPlan } from './support/journey.ts';
import { PHONE, fakeCamera, screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';
import { ADMIN_PASSWORD } from './support/server.ts';
import { floorPlanPng, screenAt } from './support/floor-plan.ts';
import { writeQrVideo } from './support/fake-camera.ts';
import { sidewaysOverflowInPage, smallTouchTargetsInPage } from './support/phone-checks.ts';

// Issue 28's installer on a ladder adds a gateway with the phone: the camera reads the QR code on its label, the
// gateway is bound to the map, its devices imported, and each blinks in turn while a tap on the plan places it.
// A device placed in the wrong spot is moved with a long press.

let site: GatewaySite;
let page: Page;
let token: string;
let mapId: string;
let mapName: string;
let cameraDir: string;
/** The devices the page asked to blink (POST try_me), in order. */
const blinked: string[] = [];

const journey = gatewayJourney('commission');
const markers = () => api(site.server.url, deviceEndpoints.markers, { query: { mapId } }, { token });
const near = (marker: DeviceMarker | undefined, x: number, y: number) =>
  marker !== undefined && Math.abs((marker.x ?? -1) - x) < 0.03 && Math.abs((marker.y ?? -1) - y) < 0.03;

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const url = site.server.url;
  const login = await api(url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
  token = login.access_token;
  const tree = await api(url, projectEndpoints.tree, { params: { id: '0' } }, { token });
  ({ id: mapId, name: mapName } = tree.projects.find((p) => p.isDefault)!.builds[0]!.maps[0]!);
  await uploadFloorPlan(url, token, mapId, floorPlanPng(1000, 600));
  // The gateway is powered up in the ceiling: online, in the pool, bound to no one yet.
  await site.start();
  const mac = site.fleet.gateways[0]!.mac;
  await poll(async () => (await api(url, gatewayEndpoints.lookup, { body: { mac } }, { token })).online, 'the gateway online in the pool');
  cameraDir = await mkdtemp(join(tmpdir(), 'lumigrid-camera-'));
  const video = join(cameraDir, 'label.y4m');
  await writeQrVideo(video, gatewayQrText({ mac }));
  page = await journey.openPage(login, { ...PHONE, args: fakeCamera(video) });
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/device/v1/try_me'))
      blinked.push((request.postDataJSON() as { id: string }).id);
  });
}, 120_000);

afterAll(async () => {
  if (cameraDir) await rm(cameraDir, { recursive: true, force: true });
});

describe('adding a gateway with the phone', () => {
  it('reads the gateway QR code with the camera, binds it and places two of its devices by tapping the plan', async () => {
    const mac = site.fleet.gateways[0]!.mac;
    await page.goto(`${site.server.url}/gateway/list`);
    await page.getByRole('button', { name: 'Bind gateway' }).tap();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('scan-start').tap();
    // The camera films the label; the code read fills the MAC and the look-up says the gateway can be bound.
    await dialog.getByTestId('bind-lookup').getByText('This gateway is free and can be bound (Online).').waitFor();
    expect(await dialog.getByLabel('MAC').inputValue()).toBe(mac);
    expect(await dialog.getByTestId('code-scanner').count()).toBe(0);
    await dialog.getByLabel('Name').fill('Ceiling gateway');
    // The map the installer works on is chosen already.
    await dialog.locator('.ant-cascader').getByText(mapName, { exact: false }).waitFor();
    expect(await page.evaluate(sidewaysOverflowInPage)).toEqual([]);
    await screenshot(page, 'phone-commission-scanned');
    await dialog.getByRole('button', { name: 'Bind', exact: true }).tap();

    // Bound and imported: the plan opens on the walk, the first device blinking.
    await page.waitForURL(/\/device\/control\?mapId=\d+&place=\d+/);
    const step = page.getByTestId('placing-step');
    await step.getByText(/^Device 1 of \d+: .+ is blinking$/).waitFor();
    const gateway = (await api(site.server.url, gatewayEndpoints.list, {}, { token })).list.find((g) => g.mac === mac)!;
    expect(gateway).toMatchObject({ name: 'Ceiling gateway', mapId });
    const waiting = await api(site.server.url, gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gateway.id } }, { token });
    expect((await step.textContent())!).toContain(`of ${waiting.length}: ${waiting[0]!.name} is blinking`);
    await poll(async () => blinked.includes(waiting[0]!.id), 'the first device asked to blink');
    await page.getByTestId('floor-plan-map').and(page.locator('[data-state=ready]')).waitFor();

    await page.touchscreen.tap(...xy(await screenAt(page, { x: 0.25, y: 0.3 })));
    await step.getByText(`Device 2 of ${waiting.length}: ${waiting[1]!.name} is blinking`).waitFor();
    await poll(async () => blinked.includes(waiting[1]!.id), 'the second device asked to blink');
    await page.touchscreen.tap(...xy(await screenAt(page, { x: 0.6, y: 0.3 })));
    await step.getByText(`Device 3 of ${waiting.length}`, { exact: false }).waitFor();
    await poll(async () => {
      const placed = await markers();
      return (
        near(
          placed.find((m) => m.id === waiting[0]!.id),
          0.25,
          0.3,
        ) &&
        near(
          placed.find((m) => m.id === waiting[1]!.id),
          0.6,
          0.3,
        )
      );
    }, 'both devices placed where the plan was tapped');
    await page.locator('[data-testid=device-canvas][data-drawn="2"]').waitFor();
    // The walk sits at the bottom of the screen under the plan, within reach of the thumb.
    const bar = (await page.getByTestId('placing-walk').boundingBox())!;
    expect(bar.y + bar.height).toBeLessThanOrEqual(PHONE.viewport.height);
    const plan = (await page.getByTestId('floor-plan-map').boundingBox())!;
    expect(plan.y + plan.height).toBeLessThanOrEqual(bar.y);
    expect(await page.evaluate(sidewaysOverflowInPage)).toEqual([]);
    expect(await page.evaluate(smallTouchTargetsInPage, 44)).toEqual([]);
    await screenshot(page, 'phone-commission-placing');

    await page.getByTestId('placing-end').tap();
    await page.getByTestId('placing-walk').waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
  });

  it('moves a placed device with a long press and a drag of the finger', async () => {
    const [first] = (await markers()).filter((m) => near(m, 0.25, 0.3));
    expect(first).toBeDefined();
    const from = await screenAt(page, { x: 0.25, y: 0.3 });
    const to = await screenAt(page, { x: 0.45, y: 0.7 });
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', at?: { x: number; y: number }) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: at ? [{ x: at.x, y: at.y, id: 1 }] : [] });
    await touch('touchStart', from);
    // Held still, the marker is picked up; only then does the finger carry it.
    await page.locator('[data-testid=device-canvas][data-lifted]').waitFor();
    for (let step = 1; step <= 8; step++)
      await touch('touchMove', { x: from.x + ((to.x - from.x) * step) / 8, y: from.y + ((to.y - from.y) * step) / 8 });
    await touch('touchEnd');
    await cdp.detach();
    await page.locator('[data-testid=device-canvas]:not([data-lifted])').waitFor();
    await poll(
      async () =>
        near(
          (await markers()).find((m) => m.id === first!.id),
          0.45,
          0.7,
        ),
      'the device moved where the finger left it',
    );
    // A long press is no tap: the device's sheet did not open.
    expect(await page.getByTestId('device-panel').count()).toBe(0);
    await screenshot(page, 'phone-commission-moved');
  });
});

const xy = (point: { x: number; y: number }): [number, number] => [point.x, point.y];
