import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { LANGS, authEndpoints, deviceEndpoints, gatewayEndpoints, projectEndpoints, type Lang, type LoginResult } from '@lumigrid/contract';
import { buildMenu, type MenuEntry } from '../apps/web/src/app/menu.ts';
import en from '../apps/web/src/i18n/en.json' with { type: 'json' };
import { api, poll } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { PHONE, SCREENSHOT_DIR, openBrowser, screenshot, storeSession, type TestBrowser } from './support/browser.ts';
import { cutLabelsInPage, sidewaysOverflowInPage, smallTouchTargetsInPage } from './support/phone-checks.ts';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';

// The demo site of a first start, as a newcomer following the README meets it: signing in lands on a
// furnished floor plan with live devices and gateways, the firmware flow can be watched end to end, and
// signing out is quiet. Then a tour of every page of the menu, in every language: each page is photographed at
// 1440 px and at a phone's 390 px (e2e/screenshots/tour/<lang>/) for people to look at, and fails on a console
// error, a failed or refused request, a catalogue key shown instead of its text, a table header cut at 1440 px,
// a serious or critical axe-core finding, or, on the phone, a page that scrolls sideways, a touch target under
// 44 px or a cut label.

const DEMO_PASSWORD = 'Demo-Pass-2026';
const TOUR_DIR = join(SCREENSHOT_DIR, 'tour');
const DESKTOP = { width: 1440, height: 900 };

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
/** The ids each account's detail pages open with (a detail page without one is left out). */
const detailQuery: Record<'demo' | 'admin', Record<string, string>> = { demo: {}, admin: {} };
const ACCOUNTS = { demo: ['demo@lumigrid.local', DEMO_PASSWORD], admin: ['admin', ADMIN_PASSWORD] } as const;
const signIn = (who: keyof typeof ACCOUNTS) =>
  api(server.url, authEndpoints.login, { body: { account: ACCOUNTS[who][0], password: ACCOUNTS[who][1] } });
let problems: string[] = [];

/** A catalogue key shown as text: a top-level section of the catalogue, a dot, and more of the key. */
const KEY_SHOWN = new RegExp(`\\b(?:${Object.keys(en).join('|')})\\.[A-Za-z0-9_.]+\\b`);

beforeAll(async () => {
  server = await startServer({
    DEMO: 'on',
    DEMO_PASSWORD,
    DEMO_TIME_FACTOR: '50',
    // A private build, for a machine where others rebuild apps/web/dist while the journeys run.
    ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
  });
  const token = (await signIn('demo')).access_token;
  // The demo site is furnished once its gateways are online and their devices placed.
  const gateways = () => api(server.url, gatewayEndpoints.list, { query: { pageSize: 50 } }, { token }).then((p) => p.list);
  await poll(async () => {
    const list = await gateways();
    return list.length > 0 && list.every((g) => g.online && g.x !== null);
  }, 'the demo gateways online and placed');
  const [gateway] = await gateways();
  const markers = () => api(server.url, deviceEndpoints.markers, { query: { mapId: gateway!.mapId } }, { token });
  await poll(async () => {
    const placed = await markers();
    return placed.length > 0 && placed.every((m) => m.status !== '');
  }, 'the demo devices placed and reporting');
  const [device] = await markers();
  const firstProject = async (t: string) => (await api(server.url, projectEndpoints.tree, { params: { id: '0' } }, { token: t })).projects;
  detailQuery.demo = {
    '/project/detail': `?id=${(await firstProject(token)).find((p) => !p.isDefault)!.id}`,
    '/gateway/detail': `?id=${gateway!.id}`,
    '/device/config/detail': `?id=${device!.id}`,
  };
  detailQuery.admin = { '/project/detail': `?id=${(await firstProject((await signIn('admin')).access_token))[0]!.id}` };

  browser = await openBrowser();
  page = browser.page;
  requests = requestsOf(page);
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A navigation cancels the previous page's polling: that is not a failure.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`failed ${request.method()} ${request.url()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Every page a user's menu leads to, and the detail pages the account has something to show on. */
function pagesOf(login: LoginResult, who: keyof typeof ACCOUNTS): string[] {
  const flat = (entries: MenuEntry[]): string[] =>
    entries.flatMap((e) => (e.children ? flat(e.children) : e.hidden && !detailQuery[who][e.path] ? [] : [e.path]));
  return flat(buildMenu(login.user, 'saas')).map((path) => path + (detailQuery[who][path] ?? ''));
}

/** How long no request may be in flight before a page counts as having loaded what it shows. */
const QUIET_MS = 300;

/**
 * The page's requests in flight (the real-time socket aside, which stays open), and when one last began or
 * ended. Playwright's own "networkidle" holds for the whole page load only and waits 500 ms; the tour moves
 * inside the app, so it keeps its own count.
 */
function requestsOf(p: Page) {
  const inFlight = new Set<Request>();
  let changedAt = Date.now();
  const ended = (request: Request) => {
    inFlight.delete(request);
    changedAt = Date.now();
  };
  p.on('request', (request) => {
    if (request.resourceType() === 'websocket' || request.resourceType() === 'eventsource') return;
    inFlight.add(request);
    changedAt = Date.now();
  });
  p.on('requestfinished', ended);
  p.on('requestfailed', ended);
  return {
    navigated: () => (changedAt = Date.now()),
    quiet: () => inFlight.size === 0 && Date.now() - changedAt >= QUIET_MS,
  };
}
let requests: ReturnType<typeof requestsOf>;

/** Waits until the page has drawn what it loads: no request in flight for a moment, no spinner, skeleton or busy button. */
async function settled(p: Page) {
  await poll(async () => requests.quiet(), 'no request in flight', { everyMs: 50, timeoutMs: 30_000 });
  await p.locator('.ant-spin-spinning, .ant-skeleton-active, .ant-btn-loading').first().waitFor({ state: 'detached' });
}

/**
 * Opens a page of the app as its menu does, without loading the document again: the router follows the
 * address (a history entry and its popstate), so each page of the tour costs what it costs a user.
 */
async function openInApp(p: Page, path: string) {
  requests.navigated();
  await p.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}

/**
 * Table headers a person cannot read whole at this width: text cut short, slid under a column fixed to the
 * table's left or right edge, or beyond the table's visible width (the table must then be scrolled to read
 * it). Runs in the page.
 */
function cutHeadersInPage(): string[] {
  const cut: string[] = [];
  const isFixed = (cell: Element) => /ant-table-cell-fix-(left|right)/.test(cell.className);
  for (const table of Array.from(document.querySelectorAll('.ant-table'))) {
    const cells = Array.from(table.querySelectorAll<HTMLElement>('.ant-table-thead th'));
    const fixed = cells.filter(isFixed).map((c) => c.getBoundingClientRect());
    // What of the table shows without scrolling it sideways.
    const view = (table.querySelector('.ant-table-content, .ant-table-header') ?? table).getBoundingClientRect();
    for (const cell of cells) {
      const label = cell.innerText.trim();
      if (!label) continue;
      // Where the whole text would be drawn, whether or not the cell clips it.
      const range = document.createRange();
      range.selectNodeContents(cell.querySelector('.ant-table-column-title') ?? cell);
      const text = range.getBoundingClientRect();
      const box = cell.getBoundingClientRect();
      const style = getComputedStyle(cell);
      const inner = { left: box.left + parseFloat(style.paddingLeft), right: box.right - parseFloat(style.paddingRight) };
      const clipped = text.left < inner.left - 1 || text.right > inner.right + 1;
      const covered = !isFixed(cell) && fixed.some((f) => Math.min(f.right, text.right) - Math.max(f.left, text.left) > 2);
      const offView = text.right > view.right + 1 || text.left < view.left - 1;
      if (clipped || covered || offView) cut.push(label);
    }
  }
  return cut;
}

/** Placeholders (of empty fields and of selects) too long for their box, so a person reads half a hint. */
function cutPlaceholdersInPage(): string[] {
  const cut: string[] = [];
  const ctx = document.createElement('canvas').getContext('2d')!;
  for (const input of Array.from(document.querySelectorAll<HTMLInputElement>('input[placeholder], textarea[placeholder]'))) {
    if (!input.placeholder || input.value || !input.offsetParent) continue;
    const style = getComputedStyle(input);
    ctx.font = style.font;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (ctx.measureText(input.placeholder).width > room + 1) cut.push(input.placeholder);
  }
  for (const shown of Array.from(document.querySelectorAll<HTMLElement>('.ant-select-selection-placeholder'))) {
    if (shown.offsetParent && shown.scrollWidth > shown.clientWidth + 1) cut.push(shown.innerText);
  }
  return cut;
}

/** The cut headers once the tables have laid themselves out (antd sizes fixed columns after the first paint). */
async function cutHeaders(p: Page): Promise<string[]> {
  await poll(async () => (await p.evaluate(cutHeadersInPage)).length === 0, 'every table header whole', { timeoutMs: 3000 }).catch(
    () => undefined,
  );
  return p.evaluate(cutHeadersInPage);
}

async function tour(who: keyof typeof ACCOUNTS, lang: Lang) {
  // A session of its own: the sign-in page ends whatever session the browser held before.
  const login = await signIn(who);
  await storeSession(page, server.url, login, lang);
  const folder = join(TOUR_DIR, lang);
  await mkdir(folder, { recursive: true });
  const seen: Record<string, string[]> = {};
  const paths = pagesOf(login, who);
  await page.goto(`${server.url}${paths[0]}`);
  for (const path of paths) {
    problems = [];
    if (path !== paths[0]) await openInApp(page, path);
    await page.locator('.ant-pro-layout').waitFor();
    await settled(page);
    const name = `${who}${path.split('?')[0]!.replaceAll('/', '-')}`;
    await page.screenshot({ path: join(folder, `${name}.png`) });
    const text = await page.locator('body').innerText();
    const key = text.match(KEY_SHOWN)?.[0];
    if (key) problems.push(`catalogue key shown: ${key}`);
    for (const header of await cutHeaders(page)) problems.push(`column header cut: ${header}`);
    for (const hint of await page.evaluate(cutPlaceholdersInPage)) problems.push(`placeholder cut: ${hint}`);
    if (AXE_LANGS.includes(lang)) for (const violation of await lastingViolations(page)) problems.push(`axe: ${violation}`);
    for (const problem of await onPhone(page, join(folder, `phone-${name}.png`))) problems.push(`on a phone: ${problem}`);
    if (problems.length) seen[path] = problems;
  }
  expect(seen).toEqual({});
}

/**
 * Axe's serious findings that outlast a moment: a live page may be caught while a refresh fades its buttons, so a
 * finding counts when a second look at the settled page finds it again.
 */
async function lastingViolations(p: Page): Promise<string[]> {
  const first = await seriousViolations(p);
  if (first.length === 0) return first;
  await settled(p);
  const again = new Set(await seriousViolations(p));
  return first.filter((violation) => again.has(violation));
}

/** Axe's rules hardly depend on the language: the tour runs them in one Latin and one CJK catalogue. */
const AXE_LANGS: readonly Lang[] = ['en', 'ja'];

/**
 * The same page at a phone's width, photographed, then back at the desktop's: the layout follows the
 * window's width, so resizing the page shows what a phone shows. Answers what does not fit a phone there.
 */
async function onPhone(p: Page, file: string): Promise<string[]> {
  await p.setViewportSize(PHONE.viewport);
  await settled(p);
  await p.screenshot({ path: file });
  const found = [
    ...(await p.evaluate(sidewaysOverflowInPage)),
    ...(await p.evaluate(smallTouchTargetsInPage, 44)),
    ...(await p.evaluate(cutLabelsInPage)),
  ];
  await p.setViewportSize(DESKTOP);
  return found;
}

/** The pages before signing in. */
const PUBLIC_PAGES = ['/user/login', '/user/tel-login', '/user/registered', '/user/tel-registered', '/user/forgetPwd'];

async function publicTour(lang: Lang) {
  await page.goto(`${server.url}/user/login`);
  await page.evaluate((language) => {
    localStorage.clear();
    localStorage.setItem('lang', language);
  }, lang);
  const folder = join(TOUR_DIR, lang);
  await mkdir(folder, { recursive: true });
  const seen: Record<string, string[]> = {};
  for (const path of PUBLIC_PAGES) {
    problems = [];
    await page.goto(`${server.url}${path}`);
    await page.locator('form button[type=submit]').waitFor();
    await settled(page);
    const name = `public${path.replaceAll('/', '-')}`;
    await page.screenshot({ path: join(folder, `${name}.png`) });
    const key = (await page.locator('body').innerText()).match(KEY_SHOWN)?.[0];
    if (key) problems.push(`catalogue key shown: ${key}`);
    for (const hint of await page.evaluate(cutPlaceholdersInPage)) problems.push(`placeholder cut: ${hint}`);
    if (AXE_LANGS.includes(lang)) for (const violation of await lastingViolations(page)) problems.push(`axe: ${violation}`);
    for (const problem of await onPhone(page, join(folder, `phone-${name}.png`))) problems.push(`on a phone: ${problem}`);
    if (problems.length) seen[path] = problems;
  }
  expect(seen).toEqual({});
}

describe('the first minutes on the demo site', () => {
  it('signs in by e-mail and opens the furnished floor plan on the first visit to the device map', async () => {
    problems = [];
    await page.goto(`${server.url}/user/login`);
    await page.getByPlaceholder('E-mail address').fill(ACCOUNTS.demo[0]);
    await page.getByPlaceholder('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/home$/);
    await page.locator('.ant-pro-sider').getByText('Devices').click();
    await page.locator('.ant-pro-sider').getByText('Device map').click();
    await page.waitForURL(/\/device\/control$/);
    // Not the empty default map: the demo's Level 3, every device and gateway drawn on it.
    await page.getByTestId('map-selector').getByText('Harbour Office Tower / Tower A / Level 3').waitFor();
    const token = (await signIn('demo')).access_token;
    const [gateway] = (await api(server.url, gatewayEndpoints.list, { query: { pageSize: 50 } }, { token })).list;
    const markers = await api(server.url, deviceEndpoints.markers, { query: { mapId: gateway!.mapId } }, { token });
    const gateways = (await api(server.url, gatewayEndpoints.list, { query: { mapId: gateway!.mapId } }, { token })).total;
    await page.locator(`[data-testid=device-canvas][data-drawn="${markers.length + gateways}"]`).waitFor();
    await page.getByTestId('map-legend').getByText(`Devices on the plan: ${markers.length}`).waitFor();
    await screenshot(page, 'demo-first-map');
    expect(problems).toEqual([]);
  });

  it('names a sensor on hover as working, not "on at full load"', async () => {
    const token = (await signIn('demo')).access_token;
    const [gateway] = (await api(server.url, gatewayEndpoints.list, { query: { pageSize: 50 } }, { token })).list;
    const markers = await api(server.url, deviceEndpoints.markers, { query: { mapId: gateway!.mapId } }, { token });
    const sensor = markers.find((m) => m.name.endsWith(' motion'))!;
    const plan = (await page.locator('img.lg-floor-plan-image').boundingBox())!;
    await page.mouse.move(plan.x + sensor.x! * plan.width, plan.y + sensor.y! * plan.height);
    const tooltip = page.getByTestId('marker-tooltip');
    await tooltip.getByText(sensor.name).waitFor();
    await tooltip.getByText('Sensor · Working').waitFor();
  });

  it('checks a demo gateway for a firmware update, finds one and watches it run to the end', async () => {
    problems = [];
    await page.locator('.ant-pro-sider').getByText('Gateways').click();
    await page.locator('.ant-pro-sider').getByText('Gateway list').click();
    await page.locator('.ant-table-row').first().getByRole('link').first().click();
    await page.waitForURL(/\/gateway\/detail\?id=/);
    await page.getByRole('button', { name: 'Firmware update' }).click();
    const modal = page.getByTestId('firmware-modal');
    await modal.getByRole('button', { name: 'Check for update' }).click();
    await modal.getByText(/Version [\d.]+ is available/).waitFor();
    await modal.getByRole('button', { name: 'Update', exact: true }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Update' }).click();
    await modal.getByTestId('firmware-progress').locator('.ant-progress').waitFor();
    await modal.locator('.ant-result').getByText('was updated successfully', { exact: false }).waitFor({ timeout: 60_000 });
    await screenshot(page, 'demo-firmware-done');
    expect(problems).toEqual([]);
    await page.locator('.ant-modal-wrap').filter({ has: modal }).locator('.ant-modal-close').click();
    await modal.waitFor({ state: 'detached' });
  });

  it('signs out without an error message and opens the e-mail sign-in the user last used', async () => {
    problems = [];
    await page.getByTestId('user-menu').hover();
    await page.getByText('Sign out').click();
    await page.waitForURL(/\/user\/login$/);
    await page.locator('.ant-tabs-tab-active').getByText('E-mail').waitFor();
    expect(await page.locator('.ant-message-error').count()).toBe(0);
    // No call was refused on the way out.
    expect(problems).toEqual([]);
  });
});

describe('a tour of every menu page on the demo site, in every language', () => {
  for (const lang of LANGS) {
    it(`shows the sign-in and sign-up pages in ${lang} without an error`, async () => publicTour(lang), 120_000);
    it(`shows the demo account's pages in ${lang} without an error`, async () => tour('demo', lang), 180_000);
    it(`shows the administrator's pages in ${lang} without an error`, async () => tour('admin', lang), 180_000);
  }
});
