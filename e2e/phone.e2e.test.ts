import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deviceEndpoints, gatewayEndpoints, groupEndpoints, type DeviceMarker, type GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { PHONE, screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';
import { ADMIN_PASSWORD } from './support/server.ts';
import { MARKER_COLOUR, colourAt, floorPlanPng, screenAt } from './support/floor-plan.ts';
import { cutLabelsInPage, sidewaysOverflowInPage, smallTouchTargetsInPage } from './support/phone-checks.ts';

// Issue 28's installer on a ladder: at 390 x 844 with a touch screen, sign in, open the floor plan from the
// menu drawer, tap a light and switch it on from the bottom sheet, pinch the plan bigger, show the names, and
// dim a group from the plan. No page it passes scrolls sideways.

let site: GatewaySite;
let page: Page;
let token: string;
let mapId: string;
let devices: GatewayDevice[];

const byKind = (kind: string) => devices.find((d) => d.kind === kind)!;
const markers = () => api(site.server.url, deviceEndpoints.markers, { query: { mapId } }, { token });
const markerOf = async (kind: string): Promise<DeviceMarker> => (await markers()).find((m) => m.id === byKind(kind).id)!;
const PLACED: Array<[kind: string, x: number, y: number]> = [
  ['light-single', 0.2, 0.3],
  ['light-dimmer', 0.5, 0.3],
  ['light-cct', 0.8, 0.3],
  ['sensor-motion', 0.5, 0.75],
];
const GROUP = 'Ceiling row';

const journey = gatewayJourney('phone');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Ladder gateway',
    floorPlan: floorPlanPng(1000, 600),
    place: (byKind) => PLACED.map(([kind, x, y]) => ({ id: byKind(kind).id, x, y })),
  });
  ({ token, mapId, devices } = placed);
  for (const kind of ['light-dimmer', 'light-cct'])
    await api(
      site.server.url,
      deviceEndpoints.control,
      { body: { id: byKind(kind).id, action: { op: 'brightness', percent: 100 } } },
      { token },
    );
  await api(
    site.server.url,
    groupEndpoints.add,
    { body: { mapId, gatewayId: placed.gateway.id, name: GROUP, deviceIds: [byKind('light-dimmer').id, byKind('light-cct').id] } },
    { token },
  );
  await api(site.server.url, gatewayEndpoints.sync, { params: { id: placed.gateway.id } }, { token });
  await poll(async () => {
    const all = await markers();
    return ['light-dimmer', 'light-cct'].every((kind) => all.find((m) => m.id === byKind(kind).id)?.display === 'onFull');
  }, 'the group lights on at full load');
  page = await journey.openPage(undefined, PHONE);
}, 120_000);

/** The page fits the phone's width: nothing to scroll sideways to. */
async function expectNoSidewaysScroll(p: Page) {
  expect(await p.evaluate(sidewaysOverflowInPage)).toEqual([]);
}

/** The floor plan's box once it stops changing (the map refits itself after its container resizes). */
async function settledPlan(p: Page) {
  const planBox = async () => (await p.locator('img.lg-floor-plan-image').boundingBox())!;
  let last = await planBox();
  await poll(async () => {
    const now = await planBox();
    const same = Math.abs(now.width - last.width) < 0.5 && Math.abs(now.y - last.y) < 0.5;
    last = now;
    return same;
  }, 'the plan still');
  return last;
}

/** A multi-touch gesture through the DevTools protocol (playwright's touchscreen taps with one finger only). */
async function pinch(p: Page, centre: { x: number; y: number }, from: number, to: number) {
  const cdp = await p.context().newCDPSession(p);
  const fingers = (gap: number) => [
    { x: centre.x - gap / 2, y: centre.y, id: 1 },
    { x: centre.x + gap / 2, y: centre.y, id: 2 },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(from) });
  for (let step = 1; step <= 8; step++)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(from + ((to - from) * step) / 8) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

describe('the platform on a phone, by touch', () => {
  it('signs in on the phone and lands on a first page that fits the screen', async () => {
    await page.goto(`${site.server.url}/user/login`);
    await page.locator('form input[autocomplete=email], form input[autocomplete=username]').first().fill('admin');
    await page.locator('form input[type=password]').fill(ADMIN_PASSWORD);
    await page.locator('form button[type=submit]').tap();
    await page.waitForURL((url) => !url.pathname.startsWith('/user'));
    await page.locator('.ant-pro-layout').waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'phone-signed-in');
  });

  it('opens the floor plan from the menu drawer; the plan fills the width of the screen', async () => {
    // The side menu is a drawer behind the menu button on a phone.
    expect(await page.locator('.ant-pro-sider').filter({ visible: true }).count()).toBe(0);
    await page.locator('.ant-pro-global-header-collapsed-button').tap();
    const drawer = page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-pro-sider-menu') });
    await drawer.getByText('Devices', { exact: true }).tap();
    await drawer.getByText('Device map').tap();
    await page.waitForURL(/\/device\/control$/);
    await page.getByTestId('floor-plan-map').and(page.locator('[data-state=ready]')).waitFor();
    await page.locator(`[data-testid=device-canvas][data-drawn="${PLACED.length}"]`).waitFor();
    const plan = (await page.getByTestId('floor-plan-map').boundingBox())!;
    expect(plan.width).toBeGreaterThan(PHONE.viewport.width * 0.85);
    expect(plan.height).toBeGreaterThan(PHONE.viewport.height * 0.6);
    await expectNoSidewaysScroll(page);
    expect(await page.evaluate(cutLabelsInPage)).toEqual([]);
    expect(await page.evaluate(smallTouchTargetsInPage, 44)).toEqual([]);
    await screenshot(page, 'phone-plan');

    // The menu opened again over the plan hides the plan's own controls: Leaflet's zoom and the tools.
    await page.locator('.ant-pro-global-header-collapsed-button').tap();
    await drawer.waitFor();
    for (const control of [page.locator('.leaflet-control-zoom-in'), page.getByTestId('plan-tools')]) {
      const box = (await control.boundingBox())!;
      const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      expect(await page.evaluate(({ x, y }) => Boolean(document.elementFromPoint(x, y)?.closest('.ant-drawer')), centre)).toBe(true);
    }
    await screenshot(page, 'phone-plan-menu');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it('taps a light: a bottom sheet with its controls opens, and switching it on shows when the gateway reports', async () => {
    const lamp = await markerOf('light-single');
    expect(lamp.display).toBe('off');
    const at = await screenAt(page, { x: lamp.x!, y: lamp.y! });
    await page.touchscreen.tap(at.x, at.y);
    const sheet = page.getByTestId('device-panel');
    await sheet.getByTestId('device-panel-name').getByText(lamp.name).waitFor();
    // A sheet along the bottom of the screen, the plan still in view above it. The sheet slides up, and on a busy
    // machine its name shows before it comes to rest: measure it once it is there.
    let box = (await sheet.boundingBox())!;
    await poll(async () => {
      box = (await sheet.boundingBox())!;
      return Math.round(box.y + box.height) === PHONE.viewport.height && box.width === PHONE.viewport.width;
    }, 'the sheet at rest along the bottom of the screen');
    // The plan shrinks to the screen above the sheet, so the light just tapped stays in sight.
    await poll(async () => {
      const plan = await settledPlan(page);
      return plan.y + plan.height <= box.y;
    }, 'the plan above the sheet');
    for (const control of ['control-onoff', 'control-identify']) await sheet.getByTestId(control).waitFor();
    await screenshot(page, 'phone-device-sheet');
    await sheet.getByTestId('control-onoff').tap();
    await poll(async () => (await markerOf('light-single')).display === 'onFull', 'the light reported on');
    await poll(
      async () => (await colourAt(page, await screenAt(page, { x: lamp.x!, y: lamp.y! }))) === MARKER_COLOUR.onFull,
      'the marker drawn on at full load',
    );
    await page
      .locator('.ant-drawer')
      .filter({ has: sheet.getByTestId('device-panel-name') })
      .locator('.ant-drawer-close')
      .tap();
    await sheet.waitFor({ state: 'detached' });
  });

  it('pinches the plan bigger and shows the names on a switch, as a touch screen has no hover', async () => {
    // The whole plan in view, once the map has grown back to the screen the sheet took part of.
    await page.getByTestId('floor-plan-fit').tap();
    const before = await settledPlan(page);
    const map = (await page.getByTestId('floor-plan-map').boundingBox())!;
    await pinch(page, { x: map.x + map.width / 2, y: map.y + map.height / 2 }, 60, 240);
    await poll(
      async () => ((await page.locator('img.lg-floor-plan-image').boundingBox())?.width ?? 0) > before.width * 1.5,
      'the plan zoomed in by the pinch',
    );
    // Once the pinch's zoom has come to rest, "Fit to view" shows the whole plan again.
    await page.locator('.leaflet-map-pane:not(.leaflet-zoom-anim)').waitFor({ state: 'attached' });
    await settledPlan(page);
    await page.getByTestId('floor-plan-fit').tap();
    await poll(
      async () => Math.abs(((await page.locator('img.lg-floor-plan-image').boundingBox())?.width ?? 0) - before.width) < 1,
      'the whole plan in view again',
      { timeoutMs: 5000 },
    );
    const canvas = page.getByTestId('device-canvas');
    expect(await canvas.getAttribute('data-labels')).toBe('0');
    await page.getByTestId('plan-names').tap();
    await page.locator('[data-testid=device-canvas]:not([data-labels="0"])').waitFor();
    await screenshot(page, 'phone-plan-names');
  });

  it('dims a group from the plan: the groups sheet, then the group control, without leaving the plan', async () => {
    await page.getByTestId('plan-groups').tap();
    await page.getByTestId(`plan-group-${GROUP}`).tap();
    const control = page.getByTestId('group-control');
    await control.getByTestId('group-state').waitFor();
    // The first slider is the group's brightness (colour temperature follows it).
    const rail = (await control.locator('.ant-slider-rail').first().boundingBox())!;
    await page.touchscreen.tap(rail.x + rail.width * 0.3, rail.y + rail.height / 2);
    await poll(async () => {
      const all = await markers();
      return ['light-dimmer', 'light-cct'].every((kind) => all.find((m) => m.id === byKind(kind).id)?.display === 'onPartial');
    }, 'the group members reported dimmed');
    await control.getByTestId('group-state').getByText('On, not at full load').waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'phone-group-control');
    expect(page.url()).toMatch(/\/device\/control$/);
  });

  it('shows the groups page as cards with each state and action on screen, without scrolling sideways', async () => {
    await page.goto(`${site.server.url}/device/group`);
    const row = page.getByTestId(`group-row-${GROUP}`);
    await row.getByTestId('group-row-state').waitFor();
    for (const target of [row.getByTestId('group-row-state'), row.getByTestId('group-edit'), row.getByTestId('group-delete')]) {
      const box = (await target.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.viewport.width);
    }
    await expectNoSidewaysScroll(page);
    expect(await page.evaluate(smallTouchTargetsInPage, 44)).toEqual([]);
    await screenshot(page, 'phone-groups');
  });
});
