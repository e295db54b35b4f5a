import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEVICE_TYPE_CODES as C, deviceEndpoints, gatewayEndpoints, libraryEndpoints, libraryTypesOf } from '@lumigrid/contract';
import type { GatewayDevice } from '@lumigrid/contract';
import { SIM_PART_NUMBERS } from '@lumigrid/gateway-sim';
import { encodePng, type Rgb } from '../apps/server/src/test/png.ts';
import { api, poll } from './support/api.ts';
import { SCREENSHOT_DIR, screenshot } from './support/browser.ts';
import { floorPlanPng, screenAt } from './support/floor-plan.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import type { GatewaySite } from './support/gateways.ts';

// The device library as an installer keeps it: a luminaire model added with its icon in the form, changed,
// matched to the gateway's devices by part number (their remaining life in the status view), refused deletion
// while devices use it; a locked panel's accounts read on the floor plan; in English, then in Japanese.

let site: GatewaySite;
let page: Page;
let token: string;
let devices: GatewayDevice[];

const byKind = (kind: string) => devices.find((d) => d.kind === kind)!;
const PLACED: Array<[kind: string, x: number, y: number]> = [
  ['light-cct', 0.2, 0.3],
  ['dali', 0.35, 0.3],
  ['panel-smart', 0.55, 0.35],
];
const library = async () => libraryTypesOf(await api(site.server.url, libraryEndpoints.typeTable, {}, { token }));

/** A round icon of one colour on a light background, as a product picture would be. */
function iconPng(rgb: Rgb): Buffer {
  const size = 96;
  return encodePng(size, size, (x, y) => {
    const d = Math.hypot(x - size / 2, y - size / 2);
    if (d < 26) return rgb;
    if (d < 30) return [255, 255, 255];
    return [240, 244, 250];
  });
}

const journey = gatewayJourney('library');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Library floor',
    floorPlan: floorPlanPng(1000, 600),
    place: (find) => PLACED.map(([kind, x, y]) => ({ id: find(kind).id, x, y })),
  });
  ({ token, devices } = placed);
  await api(site.server.url, gatewayEndpoints.reReport, { params: { id: placed.gateway.id } }, { token });
  // The rest of the catalogue, so the page shows a library as an account keeps one.
  const catalogue = [
    {
      name: 'DALI downlight 24 W',
      type: C.dali,
      initialPower: 24,
      lifespan: 60000,
      partNumber: SIM_PART_NUMBERS.dali,
      rgb: [250, 173, 20] as Rgb,
    },
    { name: 'Exit sign 8 W', type: C.emergency, initialPower: 8, lifespan: 40000, partNumber: 'EX-8W/2H', rgb: [82, 196, 26] as Rgb },
    { name: 'High bay 200 W', type: C['light-dimmer'], initialPower: 200, lifespan: 80000, partNumber: 'HB-200.4K', rgb: null },
  ];
  for (const { rgb, ...body } of catalogue) {
    const type = await api(site.server.url, libraryEndpoints.add, { body }, { token });
    if (rgb) {
      const form = new FormData();
      form.append('id', type.id);
      form.append('file', new Blob([new Uint8Array(iconPng(rgb))], { type: 'image/png' }), 'icon.png');
      await api(site.server.url, libraryEndpoints.uploadIcon, { body: form }, { token });
    }
  }
  page = await journey.openPage(placed.login);
}, 180_000);

async function choose(testId: string, text: string) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

describe('the device library and panel locks in a real browser', () => {
  it('adds a luminaire type with its icon, edits it, and is refused its deletion while a device uses it', async () => {
    await page.goto(`${site.server.url}/system/library`);
    await page.getByTestId('library-row-High bay 200 W').waitFor();
    await page.getByTestId('library-add').click();
    const form = page.getByTestId('library-form');
    await form.getByTestId('library-name').fill('Panel 60 CCT');
    await choose('library-type', 'Colour-temperature light');
    // Typed in lower case: the form writes part numbers in upper case, as they are stored.
    await form.getByTestId('library-part-number').fill(SIM_PART_NUMBERS['light-cct'].toLowerCase());
    await form.getByTestId('library-power').fill('36');
    await form.getByTestId('library-lifespan').fill('50000');
    await form
      .getByTestId('library-icon-picker')
      .locator('input[type=file]')
      .setInputFiles({ name: 'panel.png', mimeType: 'image/png', buffer: iconPng([22, 119, 255]) });
    await form.getByText('panel.png is uploaded when you save').waitFor();
    await page.getByTestId('library-save').click();
    await form.waitFor({ state: 'detached' });

    const row = page.getByTestId('library-row-Panel 60 CCT');
    await row.getByTestId('library-icon').waitFor();
    await row.getByText(SIM_PART_NUMBERS['light-cct']).waitFor();
    await row.getByText('1 in use').waitFor();
    const added = (await library()).find((t) => t.name === 'Panel 60 CCT')!;
    expect(added).toMatchObject({ partNumber: SIM_PART_NUMBERS['light-cct'], initialPower: 36, devices: 1 });
    expect(added.icon).toMatch(/^\/api4\/type\/v1\/icon\//);

    await page.getByTestId('library-edit-Panel 60 CCT').click();
    await form.getByTestId('library-power').fill('40');
    await page.getByTestId('library-save').click();
    await form.waitFor({ state: 'detached' });
    await row.getByText('40 W').waitFor();
    await screenshot(page, 'library');

    await page.getByTestId('library-delete-Panel 60 CCT').click();
    await page.getByText('1 device(s) have this part number').waitFor();
    await page.getByTestId('library-delete-ok').click();
    await page.locator('.ant-message').getByText('Library type has linked devices, cannot be deleted').waitFor();
    expect((await library()).map((t) => t.name)).toContain('Panel 60 CCT');
  });

  it('shows the remaining life of a matched device in the status view', async () => {
    await page.goto(`${site.server.url}/device/list/status`);
    const life = page.getByTestId(`remaining-life-${byKind('light-cct').id}`);
    await life.getByText(/^[\d,]+ h$/).waitFor();
    await page.getByRole('columnheader', { name: 'Remaining life' }).waitFor();
    await screenshot(page, 'library-status');
  });

  it('reads who may unlock a locked panel on the floor plan', async () => {
    await poll(
      async () =>
        (await api(site.server.url, deviceEndpoints.inputStatus, { params: { id: byKind('panel-smart').id } }, { token })).status !== '',
      'the panel reported',
    );
    await openPanel('panel-smart');
    const lock = page.getByTestId('panel-lock');
    await lock.getByTestId('panel-lock-state').getByText('Locked').waitFor();
    await lock.getByText('Facility manager').waitFor();
    await lock.getByText('Cleaning crew').waitFor();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'library-panel-lock.png') });
  });

  it('speaks Japanese on the library, the status view and the panel', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    try {
      await page.goto(`${site.server.url}/system/library`);
      await page.getByText('デバイスライブラリ').first().waitFor();
      await page.getByTestId('library-row-Panel 60 CCT').getByText('使用中 1').waitFor();
      await page.getByRole('columnheader', { name: '器具寿命' }).waitFor();
      await screenshot(page, 'library-ja');
      await page.getByTestId('library-add').click();
      await page.getByTestId('library-part-number').fill('品番');
      await page.getByTestId('library-form').getByText('不正な品番です').waitFor();
      await screenshot(page, 'library-form-ja');
      await page.getByRole('dialog').getByRole('button', { name: 'キャンセル' }).click();

      await page.goto(`${site.server.url}/device/list/status`);
      await page.getByRole('columnheader', { name: '残り寿命' }).waitFor();

      await openPanel('panel-smart');
      await page.getByTestId('panel-lock-state').getByText('ロック中').waitFor();
      await page.getByTestId('panel-lock').getByText('スロット').waitFor();
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'library-panel-lock-ja.png') });
    } finally {
      await page.evaluate(() => localStorage.setItem('lang', 'en'));
    }
  });
});

/** Opens the floor plan and clicks a placed device's marker; its panel opens. */
async function openPanel(kind: string) {
  await page.goto(`${site.server.url}/device/control`);
  await page.getByTestId('floor-plan-map').and(page.locator('[data-state=ready]')).waitFor();
  await page.locator(`[data-testid=device-canvas][data-drawn="${PLACED.length}"]`).waitFor();
  const [, x, y] = PLACED.find(([k]) => k === kind)!;
  const at = await screenAt(page, { x, y });
  await page.mouse.click(at.x, at.y);
  await page.getByTestId('device-panel').getByTestId('device-panel-name').getByText(byKind(kind).name).waitFor();
}
