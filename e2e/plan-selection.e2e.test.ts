import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  deviceEndpoints,
  groupEndpoints,
  newSceneFields,
  projectEndpoints,
  sceneEndpoints,
  type GatewayDevice,
  type LoginResult,
} from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { PHONE, openBrowser, screenshot, storeSession, type TestBrowser } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';
import { floorPlanPng, screenAt } from './support/floor-plan.ts';
import { sidewaysOverflowInPage, smallTouchTargetsInPage } from './support/phone-checks.ts';

// An installer on a ladder selects a row of lights on the plan by drawing a rectangle around them with a
// finger and makes a group of them; at a desk, shift-clicks pick two lights, one button switches them on and
// they join a scene.

let site: GatewaySite;
let page: Page;
let token: string;
let login: LoginResult;
let mapId: string;
let devices: GatewayDevice[];
let desk: TestBrowser | undefined;
let sceneId: string;

const byKind = (kind: string) => devices.find((d) => d.kind === kind)!;
const PLACED: Array<[kind: string, x: number, y: number]> = [
  ['light-single', 0.2, 0.3],
  ['light-dimmer', 0.5, 0.3],
  ['light-cct', 0.8, 0.3],
  ['sensor-motion', 0.5, 0.75],
];
const ROW = ['light-single', 'light-dimmer', 'light-cct'];
const GROUP = 'Ceiling row';

const journey = gatewayJourney('plan-selection');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Ladder gateway',
    floorPlan: floorPlanPng(1000, 600),
    place: (byKind) => PLACED.map(([kind, x, y]) => ({ id: byKind(kind).id, x, y })),
  });
  ({ token, mapId, devices, login } = placed);
  const tree = await api(site.server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
  const projectId = tree.projects.find((p) => p.isDefault)!.id;
  const evening = await api(
    site.server.url,
    sceneEndpoints.add,
    {
      body: {
        ...newSceneFields(projectId, 'manual', 'Evening'),
        steps: [{ members: [{ type: 'device', id: byKind('light-cct').id, action: { on: true, percent: 30 } }], holdS: 0 }],
      },
    },
    { token },
  );
  sceneId = evening.scene.id;
  page = await journey.openPage(login, PHONE);
}, 120_000);

afterAll(async () => {
  await desk?.close();
});

/**
 * One finger dragged from `from` to `to` through the DevTools protocol, as a person draws on the screen: moving
 * for 200 ms, then held still before it lifts. The events carry those times, whatever the machine's speed: a
 * finger lifted while moving flings the page, and Chromium takes the next tap as the one that stops the fling,
 * not as a click.
 */
async function drag(p: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await p.context().newCDPSession(p);
  const at = (t: number) => [{ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t, id: 1 }];
  const start = Date.now() / 1000;
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', seconds: number, touchPoints: ReturnType<typeof at>) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints, timestamp: start + seconds });
  await touch('touchStart', 0, at(0));
  for (let step = 1; step <= 10; step++) await touch('touchMove', step * 0.02, at(step / 10));
  await touch('touchMove', 0.5, at(1));
  await touch('touchEnd', 0.52, []);
  await cdp.detach();
}

async function openPlan(p: Page, count: number) {
  await p.goto(`${site.server.url}/device/control`);
  await p.getByTestId('floor-plan-map').and(p.locator('[data-state=ready]')).waitFor();
  await p.locator(`[data-testid=device-canvas][data-drawn="${count}"]`).waitFor();
}

describe('selecting many devices on the floor plan', () => {
  it('on a phone, draws a rectangle around three lights with a finger and makes a group of them', async () => {
    await openPlan(page, PLACED.length);
    await page.getByTestId('plan-select').tap();
    expect(await page.getByTestId('plan-select').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('plan-selection-count').getByText('Tap devices to select them', { exact: false }).waitFor();

    await drag(page, await screenAt(page, { x: 0.1, y: 0.15 }), await screenAt(page, { x: 0.9, y: 0.45 }));
    await page.getByTestId('plan-selection-count').getByText('3 selected').waitFor();
    // The actions are on screen with the plan above them, the three lights still in view.
    const bar = (await page.getByTestId('plan-selection').boundingBox())!;
    expect(bar.y + bar.height).toBeLessThanOrEqual(PHONE.viewport.height);
    expect(bar.y + bar.height).toBeGreaterThan(PHONE.viewport.height - 40);
    const plan = (await page.getByTestId('floor-plan-map').boundingBox())!;
    expect(plan.y + plan.height).toBeLessThanOrEqual(bar.y);
    // The three are drawn as selected; the sensor below the rectangle is not.
    await page.locator('[data-testid=device-canvas][data-selected="3"]').waitFor();
    expect(await page.evaluate(sidewaysOverflowInPage)).toEqual([]);
    expect(await page.evaluate(smallTouchTargetsInPage, 44)).toEqual([]);
    await screenshot(page, 'phone-plan-selection');

    await page.getByTestId('plan-selection-group').tap();
    // The keyboard is in the name at once.
    const name = page.getByTestId('plan-group-name');
    await poll(() => name.evaluate((input) => input === document.activeElement), 'the name field focused');
    await name.fill(GROUP);
    // One gateway: one group, so no list of per-gateway names.
    expect(await page.getByTestId('plan-group-per-gateway').count()).toBe(0);
    await screenshot(page, 'phone-plan-selection-group');
    await page.getByTestId('plan-group-save').tap();
    await page.getByText('1 group(s) made', { exact: false }).waitFor();
    const groups = await api(site.server.url, groupEndpoints.list, { params: { id: mapId }, body: {} }, { token });
    const made = groups.find((g) => g.name === GROUP);
    expect(made?.deviceIds.slice().sort()).toEqual(ROW.map((kind) => byKind(kind).id).sort());
    // Made: the selection is cleared, select mode stays for the next row.
    await page.getByTestId('plan-selection-count').getByText('Tap devices to select them', { exact: false }).waitFor();
    await page.locator('[data-testid=device-canvas][data-selected="0"]').waitFor();
  });

  it('at a desk, shift-clicks two lights and switches both on with one button', async () => {
    desk = await openBrowser();
    await storeSession(desk.page, site.server.url, login);
    const p = desk.page;
    await openPlan(p, PLACED.length);
    await p.keyboard.down('Shift');
    for (const kind of ['light-single', 'light-dimmer']) {
      const marker = PLACED.find(([k]) => k === kind)!;
      const at = await screenAt(p, { x: marker[1], y: marker[2] });
      await p.mouse.click(at.x, at.y);
    }
    await p.keyboard.up('Shift');
    await p.getByTestId('plan-selection-count').getByText('2 selected').waitFor();
    // A shift-click selects; it does not open the device panel.
    expect(await p.getByTestId('device-panel').count()).toBe(0);
    await screenshot(p, 'desktop-plan-selection');
    await p.getByTestId('plan-selection-on').click();
    await poll(async () => {
      const markers = await api(site.server.url, deviceEndpoints.markers, { query: { mapId } }, { token });
      return ['light-single', 'light-dimmer'].every((kind) => markers.find((m) => m.id === byKind(kind).id)?.display === 'onFull');
    }, 'both selected lights reported on');
    const cct = await api(site.server.url, deviceEndpoints.markers, { query: { mapId } }, { token });
    expect(cct.find((m) => m.id === byKind('light-cct').id)?.display).toBe('off');

    // The same two join the scene "Evening" at 60 %; the light already in it keeps its 30 %.
    await p.getByTestId('plan-selection-scene').click();
    await p.getByTestId('plan-scene-select').click();
    await p.locator('.ant-select-item-option', { hasText: 'Evening' }).click();
    const rail = (await p.getByRole('dialog').locator('.ant-slider-rail').boundingBox())!;
    await p.mouse.click(rail.x + rail.width * 0.6, rail.y + rail.height / 2);
    await screenshot(p, 'desktop-plan-selection-scene');
    await p.getByTestId('plan-scene-save').click();
    await p.getByText('2 device(s) added to Evening').waitFor();
    const scene = await api(site.server.url, sceneEndpoints.get, { params: { id: sceneId } }, { token });
    const actions = Object.fromEntries(scene.fields.steps[0]!.members.map((m) => [m.id, m.action]));
    expect(actions).toEqual({
      [byKind('light-cct').id]: { on: true, percent: 30 },
      [byKind('light-single').id]: { on: true },
      [byKind('light-dimmer').id]: { on: true, percent: 60 },
    });
  });
});
