import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import dayjs from 'dayjs';
import { authEndpoints, energyEndpoints, heatmapEndpoints, projectEndpoints, type LoginResult } from '@lumigrid/contract';
import { presetRange } from '../apps/web/src/pages/heatmap/heatmap-model.ts';
import { api, poll } from './support/api.ts';
import { openBrowser, recordApiCalls, reportFailure, screenshot, storeSession, type TestBrowser } from './support/browser.ts';
import { DEMO_PASSWORD, seededDemoStore } from './support/demo-site.ts';
import { startServer, withServerOutput, type RunningServer } from './support/server.ts';

// The heatmap as a facility manager meets it on the demo site (started again on what its first start left): from
// the device map to last week's heat over the floor plan, the week by hour, the colour levels changed (equal counts refused) and
// reset after confirming; then the same pages in Japanese.

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let login: LoginResult;
let mapId: string;
let projectId: string;
let journal: string[] = [];
const lastWeek = presetRange('lastWeek');

const heat = (range: { from: string; to: string }) =>
  api(server.url, heatmapEndpoints.gen, { body: { mapId, ...range } }, { token: login.access_token });

/** The heat layer's canvas once it has drawn: how many sensors it drew and how many of its pixels are coloured. */
async function heatDrawn(): Promise<{ points: number; coloured: number }> {
  const canvas = page.getByTestId('heat-layer');
  await canvas.waitFor({ state: 'attached' });
  return canvas.evaluate((element) => {
    const c = element as HTMLCanvasElement;
    const pixels = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let coloured = 0;
    for (let i = 3; i < pixels.length; i += 16) if (pixels[i]! > 0) coloured++;
    return { points: Number(c.dataset.points ?? 0), coloured };
  });
}

beforeAll(async () => {
  server = await startServer(
    { DEMO: 'on', DEMO_PASSWORD, ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}) },
    { store: await seededDemoStore() },
  );
  login = await api(server.url, authEndpoints.login, { body: { account: 'demo@lumigrid.local', password: DEMO_PASSWORD } });
  await poll(
    async () => {
      const tree = await api(server.url, projectEndpoints.tree, { params: { id: '0' } }, { token: login.access_token });
      const project = tree.projects.find((p) => !p.isDefault && p.builds.some((b) => b.maps.some((m) => m.deviceCount > 0)));
      const map = project?.builds.flatMap((b) => b.maps).find((m) => m.deviceCount > 0);
      if (!project || !map) return false;
      projectId = project.id;
      mapId = map.id;
      return true;
    },
    'the demo map furnished',
    { timeoutMs: 90_000 },
  );
  // Both histories are sent in time order: once yesterday has activations and energy, and last week's count and
  // yesterday's energy hold still, the demo has settled.
  let previous = '';
  const yesterday = dayjs().subtract(1, 'day').format('YYYY-MM-DD');
  await withServerOutput(server, () =>
    poll(
      async () => {
        const week = (await heat(lastWeek)).totalCount;
        const recent = (await heat({ from: yesterday, to: yesterday })).totalCount;
        const energy = await api(
          server.url,
          energyEndpoints.total,
          { body: { projectId, period: 'day', date: yesterday } },
          { token: login.access_token },
        );
        const now = `${week}|${energy.totals.energyKwh}`;
        const settled = week > 0 && recent > 0 && energy.totals.energyKwh > 0 && now === previous;
        previous = now;
        return settled;
      },
      'the demo occupancy history counted',
      // Two weeks of motion and two months of energy to store: on a machine busy with other suites it took over 300 s.
      { timeoutMs: 480_000, everyMs: 1500 },
    ),
  );
  browser = await openBrowser();
  page = browser.page;
  journal = recordApiCalls(page);
  await storeSession(page, server.url, login);
}, 720_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && browser)
    await reportFailure(page, 'heatmap', context.task.name, journal, server.output().slice(-3000));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the sensor heatmap of the demo site', () => {
  it('opens last week\u2019s heat over the floor plan from the device map, hidden from the menu', async () => {
    await page.goto(`${server.url}/device/control`);
    await page.locator('[data-testid=floor-plan-map][data-state=ready]').waitFor();
    await page.getByTestId('device-map-heatmap').click();
    await page.waitForURL(/\/heatmap\?mapId=\d+/);
    // The heatmap opens on last week; a month and back again through the picker's presets.
    const range = page.getByTestId('heatmap-range').locator('input');
    await expect(range.first().inputValue()).resolves.toBe(lastWeek.from);
    await expect(range.last().inputValue()).resolves.toBe(lastWeek.to);
    // The picker's popup stays in the page once closed: each preset is chosen in the open one, and the next
    // opening waits until the last has closed, so a click never lands on a popup on its way out.
    const openPopup = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
    const preset = async (label: string, to: { from: string; to: string }) => {
      await expect.poll(() => openPopup.count()).toBe(0);
      // Opened again when a click was lost: on a busy machine the page may draw the picker anew (its data arriving)
      // between the opening and the choice, and the choice then lands on the popup going away.
      const chosen = new RegExp(`from=${to.from}&to=${to.to}`);
      await poll(async () => {
        if ((await openPopup.count()) === 0) await range.first().click();
        await openPopup
          .locator('.ant-picker-presets')
          .getByText(label, { exact: true })
          .click({ timeout: 5_000 })
          .catch(() => undefined);
        return page.waitForURL(chosen, { timeout: 5_000 }).then(
          () => true,
          () => false,
        );
      }, `the preset "${label}" chosen`);
    };
    await preset('Last 30 days', presetRange('last30'));
    await preset('Last week', lastWeek);
    await page.locator('[data-testid=floor-plan-map][data-state=ready]').waitFor();
    // The page and the server are compared on the same counts: while the demo's history still lands, the page
    // (which reads again each minute) is reloaded until it shows what the server counts now.
    const ranking = page.getByTestId('heatmap-ranking');
    const firstRow = ranking.locator('tbody tr.ant-table-row').first();
    let expected = await heat(lastWeek);
    await poll(
      async () => {
        expected = await heat(lastWeek);
        const top = (await firstRow.textContent()) ?? '';
        const summary = (await page.getByTestId('heatmap-summary').textContent()) ?? '';
        if (top.includes(expected.sensors[0]!.name) && summary.includes(String(expected.totalCount))) return true;
        await page.reload();
        await firstRow.waitFor();
        return false;
      },
      'the ranking and the summary showing what the server counts',
      { everyMs: 1000 },
    );
    await expect.poll(async () => (await heatDrawn()).points).toBe(expected.sensors.filter((s) => s.count > 0).length);
    expect(expected.sensors.length).toBeGreaterThanOrEqual(12);
    expect((await heatDrawn()).coloured).toBeGreaterThan(5000);
    await expect.poll(() => firstRow.textContent()).toContain('100%');
    // Spec section 2: not in the side menu.
    expect(await page.locator('.ant-layout-sider').getByText('Heatmap', { exact: true }).count()).toBe(0);
    await page.mouse.move(0, 0);
    await screenshot(page, 'heatmap-en-plan');
  });

  it('shows the week by hour, busy on working days and empty at night', async () => {
    await page.getByTestId('heatmap-view').getByText('Week × hour', { exact: true }).click();
    await page.waitForURL(/view=week/);
    const chart = page.getByTestId('heatmap-week');
    await chart.locator('svg').waitFor();
    const { week } = await heat(lastWeek);
    const workdays = week
      .slice(0, 5)
      .flat()
      .reduce((a, b) => a + b, 0);
    const nights = week.flatMap((day) => day.slice(0, 5)).reduce((a, b) => a + b, 0);
    expect(workdays).toBeGreaterThan(0);
    expect(nights).toBe(0);
    // The busiest cell's count is drawn in the grid, and the days are labelled.
    await expect.poll(() => chart.textContent()).toContain(String(Math.max(...week.flat())));
    await expect.poll(() => chart.textContent()).toContain('Mon');
    await screenshot(page, 'heatmap-en-week');
  });

  it('changes the colour levels, refusing equal sensing counts, and resets them after confirming', async () => {
    await page.getByTestId('heatmap-levels-open').click();
    const drawer = page.getByTestId('heatmap-levels');
    await drawer.getByTestId('heatmap-level-1').waitFor();
    const percent = (i: number) => drawer.getByTestId(`heatmap-level-${i}`).locator('input').first();
    await percent(1).fill('20');
    await page.getByTestId('heatmap-levels-save').click();
    await drawer.getByText('Sensing counts must differ from each other').waitFor();
    await percent(1).fill('35');
    await page.getByTestId('heatmap-levels-save').click();
    await page.getByText('Colour levels saved').waitFor();
    const settings = () => api(server.url, heatmapEndpoints.settings, { params: { projectId } }, { token: login.access_token });
    expect((await settings()).levels.map((l) => l.percent)).toEqual([20, 35, 60, 80, 100]);
    await page.getByTestId('heatmap-levels-open').click();
    await page.getByTestId('heatmap-levels-reset').click();
    await page.getByText('Reset the colour levels to the defaults?').waitFor();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Reset to defaults' }).click();
    await page.getByText('Colour levels reset').waitFor();
    expect((await settings()).isDefault).toBe(true);
  });

  it('speaks Japanese', async () => {
    // Entering the sign-in page ended the first session: a new one, in Japanese.
    login = await api(server.url, authEndpoints.login, { body: { account: 'demo@lumigrid.local', password: DEMO_PASSWORD } });
    await storeSession(page, server.url, login, 'ja');
    await page.goto(`${server.url}/heatmap?mapId=${mapId}&from=${lastWeek.from}&to=${lastWeek.to}&view=plan`);
    await page.getByText('センサーヒートマップ').first().waitFor();
    await page.locator('[data-testid=floor-plan-map][data-state=ready]').waitFor();
    await expect.poll(async () => (await heatDrawn()).points).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('heatmap-ranking').textContent()).toContain('センサー別の活動');
    await page.mouse.move(0, 0);
    await screenshot(page, 'heatmap-ja-plan');
    await page.getByTestId('heatmap-view').getByText('曜日 × 時間', { exact: true }).click();
    await page.getByTestId('heatmap-week').locator('svg').waitFor();
    await expect.poll(() => page.getByTestId('heatmap-week').textContent()).toContain('月');
    await screenshot(page, 'heatmap-ja-week');
  });
});
