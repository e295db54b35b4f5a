import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { authEndpoints, projectEndpoints } from '@lumigrid/contract';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';
import { api } from './support/api.ts';
import { floorPlanPng } from './support/floor-plan.ts';
import { openBrowser, recordApiCalls, reportFailure, screenshot, storeSession, type TestBrowser } from './support/browser.ts';

// Issue 3's journey: project > building > map, a floor plan, the device map, opacity, and the refusal to
// delete the default map in the user's language.

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let token: string;

let journal: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  page = browser.page;
  journal = recordApiCalls(page);
  // Signing in through the form is the foundation journey's; here the session is stored as the app stores it.
  const login = await api(server.url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
  token = login.access_token;
  await storeSession(page, server.url, login);
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await reportFailure(page, 'projects', context.task.name, journal);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const tree = () => api(server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });

async function findMap(projectName: string, mapName: string) {
  const project = (await tree()).projects.find((p) => p.name === projectName);
  return project?.builds.flatMap((b) => b.maps).find((m) => m.name === mapName);
}

const message = (text: string) => page.locator('.ant-message').getByText(text);

describe('projects, buildings, maps and the floor plan in a real browser', () => {
  it('refuses an out-of-range longitude, then creates a project from the list', async () => {
    await page.goto(`${server.url}/project/list`);
    await page.getByText('Default project').first().waitFor();
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Project name').fill('Harbour Office Tower');
    await dialog.getByLabel('Address').fill('18 Harbour Road');
    await dialog.getByLabel('Longitude').fill('200');
    await dialog.getByLabel('Latitude').fill('22.28');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Longitude is a number from -180 to 180 with at most two decimals').waitFor();
    await dialog.getByLabel('Longitude').fill('114.17');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await message('The project was saved').waitFor();
    await page.getByRole('link', { name: 'Harbour Office Tower' }).waitFor();
    // The search asks the server for part of a name or address.
    await page.getByPlaceholder('Part of the name or address').fill('harbour');
    await page.getByRole('button', { name: 'Query' }).click();
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(2);
    const project = (await tree()).projects.find((p) => p.name === 'Harbour Office Tower');
    expect(project).toMatchObject({ address: '18 Harbour Road', longitude: 114.17, latitude: 22.28, isDefault: false });
  });

  it('adds a building and a map on the project detail', async () => {
    await page.getByRole('link', { name: 'Harbour Office Tower' }).click();
    await page.waitForURL(/\/project\/detail\?id=\d+$/);
    await page.getByRole('button', { name: 'New building' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('Building name').fill('North wing');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await message('The building was saved').waitFor();
    await page.getByTestId('building-panel').getByText('North wing').waitFor();

    await page.getByTestId('building-panel').getByRole('button', { name: 'New map' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel('Map name').fill('Ground floor');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await message('The map was saved').waitFor();
    await page.getByTestId('map-panel').getByText('Ground floor').waitFor();
    await page.getByTestId('project-tree').getByText('Maps: 1').waitFor();
  });

  it('previews a floor plan before uploading it, then shows the stored one', async () => {
    const panel = page.getByTestId('map-panel');
    await panel
      .locator('input[type=file]')
      .setInputFiles({ name: 'ground-floor.png', mimeType: 'image/png', buffer: floorPlanPng(800, 500) });
    await panel.getByTestId('floor-plan-preview').waitFor();
    await panel.getByTestId('upload-floor-plan').click();
    await message('The floor plan was uploaded').waitFor();
    await panel.getByTestId('map-image').waitFor();
    await panel.getByText('800 × 500 px').waitFor();
    const map = await findMap('Harbour Office Tower', 'Ground floor');
    expect(map).toMatchObject({ imageWidth: 800, imageHeight: 500, opacity: 100 });
    expect(await panel.getByTestId('map-image').getAttribute('src')).toBe(map?.image);
  });

  it('shows the plan on the device map at its natural size and keeps a new opacity on the map', async () => {
    await page.getByTestId('open-device-map').click();
    await page.waitForURL(/\/device\/control$/);
    await page.locator('[data-testid="floor-plan-map"][data-state="ready"]').waitFor();
    const overlay = page.locator('img.leaflet-image-layer');
    const map = await findMap('Harbour Office Tower', 'Ground floor');
    expect(await overlay.getAttribute('src')).toBe(map?.image);
    expect(await overlay.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([800, 500]);
    await expect.poll(() => page.getByTestId('map-selector').textContent()).toContain('Harbour Office Tower / North wing / Ground floor');
    // The whole plan is in view and centred in the map.
    const frame = await page.getByTestId('floor-plan-map').boundingBox();
    const plan = await overlay.boundingBox();
    if (!frame || !plan) throw new Error('no map or plan on screen');
    expect(plan.x).toBeGreaterThanOrEqual(frame.x - 1);
    expect(plan.y).toBeGreaterThanOrEqual(frame.y - 1);
    expect(plan.x + plan.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
    expect(plan.y + plan.height).toBeLessThanOrEqual(frame.y + frame.height + 1);
    expect(Math.abs(plan.x + plan.width / 2 - (frame.x + frame.width / 2))).toBeLessThan(2);
    expect(Math.abs(plan.y + plan.height / 2 - (frame.y + frame.height / 2))).toBeLessThan(2);
    // The picture people look at: without the earlier pages' toasts over the selector.
    await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);
    await screenshot(page, 'device-map-floor-plan');

    // Zooming in makes the plan larger on screen.
    const before = (await overlay.boundingBox())?.width ?? 0;
    await page.locator('.leaflet-control-zoom-in').click();
    await expect.poll(async () => (await overlay.boundingBox())?.width ?? 0).toBeGreaterThan(before * 1.2);

    // Click the slider at 40 %: the overlay follows at once and the map keeps it.
    const rail = page.getByTestId('device-map-opacity').locator('.ant-slider');
    const box = await rail.boundingBox();
    if (!box) throw new Error('no opacity slider');
    await page.mouse.click(box.x + box.width * 0.4, box.y + box.height / 2);
    await message('Opacity saved').waitFor();
    const saved = (await findMap('Harbour Office Tower', 'Ground floor'))?.opacity ?? 100;
    expect(saved).toBeGreaterThan(30);
    expect(saved).toBeLessThan(50);
    expect(Number(await overlay.evaluate((img) => getComputedStyle(img).opacity))).toBeCloseTo(saved / 100, 2);
    await screenshot(page, 'device-map-opacity');
  });

  it('remembers the chosen map across visits', async () => {
    await page.goto(`${server.url}/home`);
    await page.goto(`${server.url}/device/control`);
    await page.locator('[data-testid="floor-plan-map"][data-state="ready"]').waitFor();
    await expect.poll(() => page.getByTestId('map-selector').textContent()).toContain('Harbour Office Tower / North wing / Ground floor');
  });

  it("refuses to delete the default map with the server's message in the user's language", async () => {
    const defaults = (await tree()).projects.find((p) => p.isDefault);
    if (!defaults) throw new Error('no default project');
    await page.goto(`${server.url}/project/detail?id=${defaults.id}`);
    const panel = page.getByTestId('map-panel');
    await panel.getByText('Default map').waitFor();
    await panel.getByRole('button', { name: 'Delete' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
    await message('The default map cannot be deleted').waitFor();

    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    await page.reload();
    // The name was given in the account's language when the account was made; the buttons follow the page.
    await panel.getByText(/Default map|既定のマップ/).waitFor();
    await panel.getByRole('button', { name: '削除' }).click();
    // antd spaces out a two-character CJK label on a button without an icon.
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /^削\s*除$/ })
      .click();
    await message('既定のマップは削除できません').waitFor();
    await page.locator('.ant-popconfirm').waitFor({ state: 'hidden' });
    await screenshot(page, 'default-map-delete-refused-ja');
    expect((await tree()).projects.find((p) => p.isDefault)?.builds[0]?.maps).toHaveLength(1);
  });
});
