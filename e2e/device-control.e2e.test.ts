import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deviceEndpoints, gatewayEndpoints } from '@lumigrid/contract';
import type { Gateway, GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { openBrowser, screenshot, storeSession, type TestBrowser } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';
import { MARKER_COLOUR, colourAt, floorPlanPng, screenAt } from './support/floor-plan.ts';

// Issue 5's floor-plan journey: a map with a real simulated gateway's devices drawn on the canvas; drag one
// into place, drop an outmap one onto the plan, switch a light from the panel and see the marker change only
// when the gateway reports, live in a second browser too, and a gateway that does not answer.

let site: GatewaySite;
let watcher: TestBrowser;
let page: Page;
let token: string;
let mapId: string;
let gateway: Gateway;
let devices: GatewayDevice[];

const sim = () => site.fleet.gateways[0]!;
const byKind = (kind: string) => devices.find((d) => d.kind === kind)!;
const markers = () => api(site.server.url, deviceEndpoints.markers, { query: { mapId: mapId } }, { token });
const gatewayNow = () => api(site.server.url, gatewayEndpoints.detail, { params: { id: gateway.id } }, { token });
const detail = (id: string) => api(site.server.url, deviceEndpoints.detail, { params: { mapId, id } }, { token });
/** The devices placed before the browser opens, and where (fractions of the plan). */
const PLACED: Array<[kind: string, x: number, y: number]> = [
  ['light-single', 0.2, 0.3],
  ['light-dimmer', 0.3, 0.3],
  ['light-cct', 0.4, 0.3],
  ['light-rgb', 0.5, 0.3],
  ['curtain', 0.2, 0.7],
  ['switch-2', 0.3, 0.7],
  ['sensor-motion', 0.45, 0.7],
  ['emergency', 0.6, 0.7],
  ['bridge', 0.8, 0.5],
];

const journey = gatewayJourney('device-control');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Floor gateway',
    floorPlan: floorPlanPng(1000, 600),
    place: (byKind) => PLACED.map(([kind, x, y]) => ({ id: byKind(kind).id, x, y })),
  });
  const { login } = placed;
  ({ token, mapId, gateway, devices } = placed);
  // Some life on the plan: a light at full load, one dimmed, one failing device is the simulator's to decide.
  await api(
    site.server.url,
    deviceEndpoints.control,
    { body: { id: byKind('light-single').id, action: { op: 'onOff', on: true } } },
    { token },
  );
  await api(
    site.server.url,
    deviceEndpoints.control,
    { body: { id: byKind('light-dimmer').id, action: { op: 'brightness', percent: 40 } } },
    { token },
  );
  await api(site.server.url, gatewayEndpoints.reReport, { params: { id: gateway.id } }, { token });
  await poll(async () => (await markers()).every((m) => m.status !== ''), 'every placed device reported');

  page = await journey.openPage(login);
  watcher = await openBrowser({ viewport: { width: 1280, height: 800 } });
  await storeSession(watcher.page, site.server.url, login);
}, 120_000);

afterAll(async () => {
  await watcher?.close();
});

async function markerColour(p: Page, id: string) {
  const m = (await markers()).find((x) => x.id === id)!;
  return colourAt(p, await screenAt(p, { x: m.x!, y: m.y! }));
}

async function openMap(p: Page) {
  await p.goto(`${site.server.url}/device/control`);
  await p.getByTestId('floor-plan-map').and(p.locator('[data-state=ready]')).waitFor();
  // Every placed device and the gateway, once it is placed, are on the canvas.
  const placed = (await markers()).length + ((await gatewayNow()).x === null ? 0 : 1);
  await p.locator(`[data-testid=device-canvas][data-drawn="${placed}"]`).waitFor();
  // Opening the map asks nothing it may not (no call before a map is chosen, no other account's ids).
  expect(await p.locator('.ant-message .ant-message-error').count()).toBe(0);
}

const { onFull: FULL, off: OFF, onPartial: PARTIAL } = MARKER_COLOUR;

describe('live device control on the floor plan', () => {
  it('draws every device of the map by kind and state, and the gateway', async () => {
    await openMap(page);
    await page.getByTestId('map-legend').getByText(`Devices on the plan: ${PLACED.length}`).waitFor();
    expect(await markerColour(page, byKind('light-single').id)).toBe(FULL);
    expect(await markerColour(page, byKind('light-dimmer').id)).toBe('#ffe58f');
    expect(await markerColour(page, byKind('light-cct').id)).toBe(OFF);
    await page.getByTestId('outmap-list').getByText('Floor gateway').waitFor();
    await screenshot(page, 'device-map');
  });

  it('drags a device into place; the position persists after a reload', async () => {
    const lamp = byKind('light-cct');
    const from = await screenAt(page, { x: 0.4, y: 0.3 });
    const to = await screenAt(page, { x: 0.62, y: 0.45 });
    const saved = page.waitForResponse(
      (r) => r.url().endsWith(deviceEndpoints.positions.path) && r.request().method() === deviceEndpoints.positions.method,
    );
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
    await page.mouse.move(to.x, to.y, { steps: 4 });
    await page.mouse.up();
    expect((await saved).status()).toBe(200);
    const moved = (await markers()).find((m) => m.id === lamp.id)!;
    expect(moved.x).toBeCloseTo(0.62, 2);
    expect(moved.y).toBeCloseTo(0.45, 2);
    // A drag is not a click: no panel opened.
    expect(await page.getByTestId('device-panel-name').count()).toBe(0);
    await page.reload();
    await openMap(page);
    expect(await colourAt(page, await screenAt(page, { x: 0.62, y: 0.45 }))).toBe(OFF);
    expect(await colourAt(page, from)).not.toBe(OFF);
  });

  it('drops a device that is on no map onto the plan', async () => {
    const outmap = byKind('switch-1');
    const item = page.getByTestId(`outmap-${outmap.id}`);
    await item.waitFor();
    const box = (await page.locator('img.lg-floor-plan-image').boundingBox())!;
    // An HTML5 drag from the list onto the plan, where the plan image is.
    await item.dragTo(page.locator('img.lg-floor-plan-image'), {
      targetPosition: { x: box.width * 0.75, y: box.height * 0.2 },
      force: true,
    });
    await poll(async () => (await markers()).some((m) => m.id === outmap.id), 'the dropped device on the map');
    const placed = (await markers()).find((m) => m.id === outmap.id)!;
    expect(placed.x).toBeCloseTo(0.75, 1);
    expect(placed.y).toBeCloseTo(0.2, 1);
    await item.waitFor({ state: 'detached' });
  });

  it('places the gateway from the list onto the plan and drags it elsewhere; it stays there after a reload', async () => {
    const header = page.getByTestId(`outmap-gateway-${gateway.id}`);
    await header.getByText('Not on the floor plan yet', { exact: false }).waitFor();
    const box = (await page.locator('img.lg-floor-plan-image').boundingBox())!;
    await header.dragTo(page.locator('img.lg-floor-plan-image'), {
      targetPosition: { x: box.width * 0.9, y: box.height * 0.15 },
      force: true,
    });
    await poll(async () => (await gatewayNow()).x !== null, 'the gateway placed');
    expect((await gatewayNow()).x).toBeCloseTo(0.9, 1);
    await header.getByText('Not on the floor plan yet', { exact: false }).waitFor({ state: 'detached' });
    await openMap(page);
    const from = await screenAt(page, { x: (await gatewayNow()).x!, y: (await gatewayNow()).y! });
    const to = await screenAt(page, { x: 0.9, y: 0.85 });
    await page.mouse.move(from.x, from.y);
    await page.getByTestId('marker-tooltip').getByText('Floor gateway').waitFor();
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await page.mouse.up();
    await poll(async () => ((await gatewayNow()).y ?? 0) > 0.8, 'the gateway dragged');
    await page.reload();
    await openMap(page);
    expect(await colourAt(page, await screenAt(page, { x: 0.9, y: 0.85 }))).toBe('#1677ff');
  });

  it('names each marker on hover with what it is and its state: a sensor works, it is not "on at full load"', async () => {
    await openMap(page);
    const hover = async (kind: string) => {
      const m = (await markers()).find((x) => x.id === byKind(kind).id)!;
      const at = await screenAt(page, { x: m.x!, y: m.y! });
      await page.mouse.move(at.x, at.y);
      return page.getByTestId('marker-tooltip').filter({ hasText: byKind(kind).name });
    };
    await (await hover('light-single')).getByText('Light · On at full load').waitFor();
    await (await hover('sensor-motion')).getByText('Sensor · Working').waitFor();
    await screenshot(page, 'device-map-hover');
    // Away from every marker the name goes.
    const empty = await screenAt(page, { x: 0.05, y: 0.95 });
    await page.mouse.move(empty.x, empty.y);
    await page.getByTestId('marker-tooltip').waitFor({ state: 'detached' });
  });

  it('finds a device by name, centring the plan on it with names written under the markers', async () => {
    await openMap(page);
    expect(await page.getByTestId('device-canvas').getAttribute('data-labels')).toBe('0');
    await page.getByTestId('device-map-find').click();
    await page.keyboard.type(byKind('curtain').name);
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: byKind('curtain').name })
      .click();
    await page.getByTestId('device-panel-name').getByText(byKind('curtain').name).waitFor();
    // Zoomed in on it: names fit under the markers now.
    await poll(async () => Number(await page.getByTestId('device-canvas').getAttribute('data-labels')) > 0, 'names on the plan');
    await screenshot(page, 'device-map-found');
    await page.keyboard.press('Escape');
  });

  it('filters the plan from the legend: hides the lights, then shows only what failed', async () => {
    await openMap(page);
    const drawn = async () => Number(await page.getByTestId('device-canvas').getAttribute('data-drawn'));
    const all = await drawn();
    const lights = (await markers()).filter((m) =>
      ['light-single', 'light-dimmer', 'light-cct', 'light-rgb'].some((k) => byKind(k).id === m.id),
    );
    await page.getByTestId('legend-light').click();
    await poll(async () => (await drawn()) === all - lights.length, 'the lights hidden');
    const count = (await markers()).length;
    await page
      .getByTestId('map-legend')
      .getByText(`Showing ${count - lights.length} of ${count} devices on the plan`)
      .waitFor();
    await page.getByTestId('legend-show-all').click();
    await poll(async () => (await drawn()) === all, 'everything back');
    await page.getByTestId('legend-failure').click({ modifiers: ['Control'] });
    const failing = (await markers()).filter((m) => m.display === 'failure').length;
    // Gateways are not a state, so they stay.
    await poll(async () => (await drawn()) === failing + 1, 'only failures and the gateway');
    await page.getByTestId('legend-show-all').click();
  });

  it('switches a light off from the panel; the marker changes when the gateway reports, live in a second browser', async () => {
    const light = byKind('light-single');
    await openMap(watcher.page);
    const at = await screenAt(page, { x: 0.2, y: 0.3 });
    expect(await colourAt(page, at)).toBe(FULL);
    expect(await markerColour(watcher.page, light.id)).toBe(FULL);

    // Hold the gateway's reports: the command is confirmed, but nothing says the light went off yet.
    const gw = sim() as unknown as { publishReport: (...args: unknown[]) => unknown };
    const publish = gw.publishReport;
    const held: unknown[][] = [];
    gw.publishReport = (...args: unknown[]) => void held.push(args);
    try {
      await page.mouse.click(at.x, at.y);
      const panel = page.getByTestId('device-panel');
      await panel.getByTestId('device-panel-name').getByText(light.name).waitFor();
      await panel.getByTestId('device-panel-state').getByText('On at full load').waitFor();
      await panel.getByTestId('control-onoff').click();
      await panel.getByTestId('control-waiting').waitFor();
      await poll(() => held.length > 0, 'the held report');
      await screenshot(page, 'device-panel-waiting');
      expect(await colourAt(page, at)).toBe(FULL);
      expect(await markerColour(watcher.page, light.id)).toBe(FULL);
      expect(await panel.getByTestId('control-onoff').getAttribute('aria-checked')).toBe('true');
    } finally {
      gw.publishReport = publish;
    }
    for (const args of held) publish.apply(gw, args);

    const panel = page.getByTestId('device-panel');
    await panel.getByTestId('device-panel-state').getByText('Off', { exact: true }).waitFor();
    await poll(async () => (await colourAt(page, at)) === OFF, 'the marker drawn off');
    await poll(async () => (await markerColour(watcher.page, light.id)) === OFF, 'the second browser drawing it off');
    expect(await panel.getByTestId('control-onoff').getAttribute('aria-checked')).toBe('false');
    expect(await panel.getByTestId('control-waiting').count()).toBe(0);
    await screenshot(page, 'device-panel-off');
    await screenshot(watcher.page, 'device-map-watcher');
  });

  it('switches a dimmable light on and dims it to half; the marker turns to "on, not at full load"', async () => {
    const dimmer = byKind('light-dimmer');
    const at = await screenAt(page, { x: 0.3, y: 0.3 });
    await page.mouse.click(at.x, at.y);
    const panel = page.getByTestId('device-panel');
    await panel.getByTestId('device-panel-name').getByText(dimmer.name).waitFor();
    const onOff = panel.getByTestId('control-onoff');
    if ((await onOff.getAttribute('aria-checked')) !== 'true') {
      await onOff.click();
      await poll(async () => (await onOff.getAttribute('aria-checked')) === 'true', 'the light reported on');
    }
    await panel.getByTestId('control-brightness').locator('.ant-slider-handle').waitFor();
    if ((await detail(dimmer.id)).display !== 'onFull') {
      // Full brightness first, so that dimming has something to change.
      await panel.getByTestId('control-brightness').locator('.ant-slider-handle').focus();
      await page.keyboard.press('End');
      await poll(async () => (await detail(dimmer.id)).display === 'onFull', 'the light at full load');
    }
    await poll(async () => (await colourAt(page, at)) === FULL, 'the marker drawn at full load');
    const rail = await panel.getByTestId('control-brightness').locator('.ant-slider').boundingBox();
    await page.mouse.click(rail!.x + rail!.width / 2, rail!.y + rail!.height / 2);
    await poll(async () => (await detail(dimmer.id)).display === 'onPartial', 'the gateway reporting the light dimmed');
    await poll(async () => (await colourAt(page, at)) === PARTIAL, 'the marker drawn not at full load');
    await poll(async () => (await markerColour(watcher.page, dimmer.id)) === PARTIAL, 'the second browser drawing it dimmed');
    const shown = Number(
      (await panel.getByTestId('control-brightness').locator('.ant-typography').first().textContent())?.replace(/\D/g, ''),
    );
    expect(shown).toBeGreaterThan(30);
    expect(shown).toBeLessThan(70);
    await screenshot(page, 'device-panel-dimmed');
  });

  it('shows an editor\u2019s drag live to another user watching the map', async () => {
    const lamp = byKind('light-rgb');
    const from = await screenAt(page, { x: 0.5, y: 0.3 });
    const to = await screenAt(page, { x: 0.55, y: 0.85 });
    expect(await colourAt(watcher.page, await screenAt(watcher.page, { x: 0.55, y: 0.85 }))).not.toBe(OFF);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await page.mouse.up();
    await poll(async () => Math.abs(((await markers()).find((m) => m.id === lamp.id)?.y ?? 0) - 0.85) < 0.01, 'the new position stored');
    // No reload in the second browser: the marker arrives on the map topic.
    await poll(
      async () => (await colourAt(watcher.page, await screenAt(watcher.page, { x: 0.55, y: 0.85 }))) === OFF,
      'the watcher drawing the lamp at its new place',
    );
    expect(await colourAt(watcher.page, await screenAt(watcher.page, { x: 0.5, y: 0.3 }))).not.toBe(OFF);
  });

  it('offers only what the type can do: a dimmable colour-temperature light, a curtain, a two-channel switch', async () => {
    const panel = page.getByTestId('device-panel');
    const open = async (kind: string, where: { x: number; y: number }) => {
      const at = await screenAt(page, where);
      await page.mouse.click(at.x, at.y);
      await panel.getByTestId('device-panel-name').getByText(byKind(kind).name).waitFor();
    };
    await open('light-cct', { x: 0.62, y: 0.45 });
    await panel.getByTestId('control-brightness').waitFor();
    await panel.getByTestId('control-cct').waitFor();
    expect(await panel.getByTestId('control-position').count()).toBe(0);
    await open('curtain', { x: 0.2, y: 0.7 });
    await panel.getByRole('button', { name: 'Open' }).waitFor();
    await panel.getByTestId('control-position').waitFor();
    expect(await panel.getByTestId('control-onoff').count()).toBe(0);
    await open('switch-2', { x: 0.3, y: 0.7 });
    await panel.getByTestId('control-channel-1').waitFor();
    await panel.getByTestId('control-channel-2').click();
    await poll(async () => (await detail(byKind('switch-2').id)).display === 'onPartial', 'channel 2 on');
    await poll(
      async () => (await panel.getByTestId('control-channel-2').getAttribute('aria-checked')) === 'true',
      'the switch showing channel 2 on',
    );
    await screenshot(page, 'device-panel-switch');
  });

  it('says so, in the user\u2019s language, when the gateway does not answer', async () => {
    const light = byKind('light-single');
    sim().faults.noReply = new Set(['device.control']);
    try {
      const at = await screenAt(page, { x: 0.2, y: 0.3 });
      await page.mouse.click(at.x, at.y);
      const panel = page.getByTestId('device-panel');
      await panel.getByTestId('device-panel-name').getByText(light.name).waitFor();
      await panel.getByTestId('control-onoff').click();
      const failure = panel.getByTestId('control-failure');
      await failure.getByText('The command failed').waitFor({ timeout: 25_000 });
      await failure.getByText('Please check the gateway network connection').waitFor();
      await screenshot(page, 'device-panel-timeout');
    } finally {
      sim().faults.noReply = false;
    }
  });

  it('speaks Japanese: the legend, the panel and the outmap list', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    await openMap(page);
    await page.getByTestId('map-legend').getByText('全負荷で点灯').waitFor();
    await page.getByTestId('outmap-list').getByText('マップ外のデバイス').waitFor();
    const at = await screenAt(page, { x: 0.3, y: 0.3 });
    await page.mouse.click(at.x, at.y);
    const panel = page.getByTestId('device-panel');
    await panel.getByTestId('device-panel-name').getByText(byKind('light-dimmer').name).waitFor();
    await panel.getByText('明るさ').waitFor();
    await panel.getByTestId('device-panel-state').getByText('点灯（全負荷ではない）').waitFor();
    await screenshot(page, 'device-panel-ja');
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
  });

  it('closes the device panel with Escape and with a click on the plan away from the markers, below the header', async () => {
    await openMap(page);
    const panel = page.getByTestId('device-panel');
    const open = async () => {
      const at = await screenAt(page, { x: 0.3, y: 0.3 });
      await page.mouse.click(at.x, at.y);
      await panel.getByTestId('device-panel-name').getByText(byKind('light-dimmer').name).waitFor();
    };
    await open();
    // The header stays reachable while the panel is open.
    const language = page.getByRole('button', { name: 'Language' });
    const header = (await language.boundingBox())!;
    const drawer = (await panel.boundingBox())!;
    expect(drawer.y).toBeGreaterThan(header.y + header.height);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await open();
    const empty = await screenAt(page, { x: 0.05, y: 0.95 });
    await page.mouse.click(empty.x, empty.y);
    await panel.waitFor({ state: 'detached' });
  });

  it('drops a device moved off the map from a second browser watching it, without a reload', async () => {
    const gone = byKind('emergency');
    await openMap(watcher.page);
    const placed = (await markers()).length;
    const at = await screenAt(watcher.page, { x: 0.6, y: 0.7 });
    const drawn = await colourAt(watcher.page, at);
    // The editor moves it out; the watcher hears {removed: [id]} on the map topic.
    await api(site.server.url, deviceEndpoints.moveOut, { body: { ids: [gone.id] } }, { token });
    await watcher.page.locator(`[data-testid=device-canvas][data-drawn="${placed}"]`).waitFor();
    await poll(async () => (await colourAt(watcher.page, at)) !== drawn, 'the watcher no longer drawing the device');
    expect((await markers()).map((m) => m.id)).not.toContain(gone.id);
    await screenshot(watcher.page, 'device-map-watcher-moved-out');
  });
});
