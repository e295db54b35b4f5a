import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import dayjs from 'dayjs';
import {
  allEndpoints,
  authEndpoints,
  deviceEndpoints,
  endpointId,
  energyEndpoints,
  gatewayEndpoints,
  heatmapEndpoints,
  projectEndpoints,
  type Lang,
  type LoginResult,
} from '@lumigrid/contract';
import { buildMenu, type MenuEntry } from '../../apps/web/src/app/menu.ts';
import en from '../../apps/web/src/i18n/en.json' with { type: 'json' };
import { api, poll } from './api.ts';
import { seriousViolations } from './axe.ts';
import { PHONE, SCREENSHOT_DIR, followInApp, openBrowser, storeSession, type TestBrowser } from './browser.ts';
import { settled, trackRequests, type RequestTracker } from './settled.ts';
import { cutLabelsInPage, sidewaysOverflowInPage, smallTouchTargetsInPage } from './phone-checks.ts';
import {
  ADMIN_PASSWORD,
  freshStore,
  startServer,
  withServerOutput,
  type RunningServer,
  type ServerStore,
  type StoreSource,
} from './server.ts';

// The demo site, on its first start as a newcomer following the README meets it (e2e/demo-site.e2e.test.ts), or
// started again on what a first start left, for the tour of every page of the menu in one language
// (e2e/tour-<lang>.e2e.test.ts, a file a language so that the journeys' workers share the four). Each page is photographed at 1440 px and, in
// English and Japanese, at a phone's 390 px (e2e/screenshots/tour/<lang>/) for people to look at, and fails on a console error, a failed or
// refused request, a catalogue key shown instead of its text, a table header cut at 1440 px, a serious or critical
// axe-core finding, or, on the phone, a page that scrolls sideways, a touch target under 44 px or a cut label.

export const DEMO_PASSWORD = 'Demo-Pass-2026';
const TOUR_DIR = join(SCREENSHOT_DIR, 'tour');
const DESKTOP = { width: 1440, height: 900 };

/** The running demo site of this file, its browser page, and what the page reported since `problems` was last emptied. */
export const site = {} as { server: RunningServer; browser: TestBrowser; page: Page; problems: string[] };
/** The ids each account's detail pages open with (a detail page without one is left out). */
const detailQuery: Record<'demo' | 'admin', Record<string, string>> = { demo: {}, admin: {} };
export const ACCOUNTS = { demo: ['demo@lumigrid.local', DEMO_PASSWORD], admin: ['admin', ADMIN_PASSWORD] } as const;
export const signIn = (who: keyof typeof ACCOUNTS) =>
  api(site.server.url, authEndpoints.login, { body: { account: ACCOUNTS[who][0], password: ACCOUNTS[who][1] } });

/** A catalogue key shown as text: a top-level section of the catalogue, a dot, and more of the key. */
const KEY_SHOWN = new RegExp(`\\b(?:${Object.keys(en).join('|')})\\.[A-Za-z0-9_.]+\\b`, 'g');
/** Endpoint ids (`scenes.add`) look like keys, and the audit trail shows them on purpose beside each action. */
const ENDPOINT_IDS = new Set(allEndpoints().map((e) => endpointId(e)));
const keyShown = (text: string) => [...text.matchAll(KEY_SHOWN)].map((m) => m[0]).find((k) => !ENDPOINT_IDS.has(k));

/**
 * A store holding the demo site as its first start leaves it: the account, the furnished floor plan, the
 * gateways bound, two months of energy and two weeks of occupancy history. A file that starts from a copy meets
 * the demo as a restart does, without the minute of a core that sending the history again costs. The first
 * file of the run that asks makes it, under a lock; the others wait for it.
 */
export async function seededDemoStore(): Promise<ServerStore> {
  const folder = inject('demoSeedDir');
  const data = join(folder, 'data');
  const ready = join(folder, 'ready');
  const failed = join(folder, 'failed');
  const seedsHere = await mkdir(join(folder, 'lock')).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  if (!seedsHere) {
    await poll(async () => existsSync(ready) || existsSync(failed), 'the demo site seeded by another file', { timeoutMs: 700_000 });
    if (existsSync(failed)) throw new Error(`the demo site could not be seeded: ${await readFile(failed, 'utf8')}`);
    return freshStore('lumigrid-e2e-demo-', { from: JSON.parse(await readFile(ready, 'utf8')) as StoreSource });
  }
  const server = await startServer({ DEMO: 'on', DEMO_PASSWORD, LOG_LEVEL: 'info' });
  try {
    // Both histories are sent by then; the occupancy history goes on after the site runs.
    await poll(
      async () => /demo site running/.test(server.output()) && /demo occupancy history: \d+/.test(server.output()),
      'the demo site seeded',
      {
        timeoutMs: 300_000,
      },
    );
    await withServerOutput(server, () => historyStored(server));
  } catch (error) {
    await writeFile(failed, String(error));
    await server.stop();
    throw error;
  }
  await server.stop({ keepData: true });
  await rename(server.dataDir, data);
  const seed: StoreSource = { dataDir: data, databaseUrl: server.store.databaseUrl };
  await writeFile(ready, JSON.stringify(seed));
  return freshStore('lumigrid-e2e-demo-', { from: seed });
}

/**
 * Waits until the seeding server has stored the history its gateways sent, not only sent it: a server still
 * working through the broker's backlog when it stops loses the rest (the newest days). Before today the demo
 * maps' activations and yesterday's energy stop changing once it is stored; today's live ones would not.
 */
async function historyStored(server: RunningServer) {
  const token = (await api(server.url, authEndpoints.login, { body: { account: ACCOUNTS.demo[0], password: DEMO_PASSWORD } })).access_token;
  const { projects } = await api(server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
  const furnished = projects.filter((p) => !p.isDefault);
  const mapIds = furnished.flatMap((p) => p.builds.flatMap((b) => b.maps.filter((m) => m.deviceCount > 0).map((m) => m.id)));
  const yesterday = dayjs().subtract(1, 'day').format('YYYY-MM-DD');
  const range = { from: dayjs().subtract(15, 'day').format('YYYY-MM-DD'), to: yesterday };
  let previous = '';
  let unchanged = 0;
  await poll(
    async () => {
      let activations = 0;
      for (const mapId of mapIds)
        activations += (await api(server.url, heatmapEndpoints.gen, { body: { mapId, ...range } }, { token })).totalCount;
      let energy = 0;
      for (const project of furnished)
        energy += (
          await api(server.url, energyEndpoints.total, { body: { projectId: project.id, period: 'day', date: yesterday } }, { token })
        ).totals.energyKwh;
      const now = `${activations}|${energy}`;
      unchanged = activations > 0 && energy > 0 && now === previous ? unchanged + 1 : 0;
      previous = now;
      return unchanged >= 3;
    },
    'the demo history stored',
    { timeoutMs: 300_000, everyMs: 2000 },
  );
}

/**
 * Starts the demo site and a browser for the file that calls it, and stops them after its tests: on its first
 * start (`firstStart`, as a newcomer following the README meets it), or started again on what a first start left
 * (seededDemoStore). `timeFactor` speeds the simulated gateways (a firmware update watched to its end); faster
 * time costs the server CPU, as their telemetry comes that many times as often.
 */
export function useDemoSite({ firstStart = false, timeFactor = 1 }: { firstStart?: boolean; timeFactor?: number } = {}) {
  beforeAll(async () => {
    const server = (site.server = await startServer(
      {
        // A first start logs its seeding's steps, which the journey reads to know what is written.
        ...(firstStart ? { LOG_LEVEL: 'info' } : {}),
        DEMO: 'on',
        DEMO_PASSWORD,
        DEMO_TIME_FACTOR: String(timeFactor),
        // A private build, for a machine where others rebuild apps/web/dist while the journeys run.
        ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
      },
      // The first start on the embedded database, as the README's command starts it.
      firstStart ? { embedded: true } : { store: await seededDemoStore() },
    ));
    site.problems = [];
    // A first start furnishes its gateways one after the other: one gateway's devices can all be placed while the
    // next one's are still coming.
    if (firstStart) await poll(async () => /demo floor plan furnished/.test(server.output()), 'the demo floor plan furnished');
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
    const firstProject = async (t: string) =>
      (await api(server.url, projectEndpoints.tree, { params: { id: '0' } }, { token: t })).projects;
    detailQuery.demo = {
      '/project/detail': `?id=${(await firstProject(token)).find((p) => !p.isDefault)!.id}`,
      '/gateway/detail': `?id=${gateway!.id}`,
      '/device/config/detail': `?id=${device!.id}`,
    };
    detailQuery.admin = { '/project/detail': `?id=${(await firstProject((await signIn('admin')).access_token))[0]!.id}` };

    site.browser = await openBrowser();
    const page = (site.page = site.browser.page);
    requests = trackRequests(page);
    page.on('console', (message) => {
      if (message.type() === 'error') site.problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => site.problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      // A navigation cancels the previous page's polling: that is not a failure.
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') site.problems.push(`failed ${request.method()} ${request.url()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) site.problems.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
  }, 720_000);

  afterAll(async () => {
    await site.browser?.close();
    await site.server?.stop();
  });
}

/** Every page a user's menu leads to, and the detail pages the account has something to show on. */
function pagesOf(user: LoginResult['user'], who: keyof typeof ACCOUNTS): string[] {
  const flat = (entries: MenuEntry[]): string[] =>
    entries.flatMap((e) => (e.children ? flat(e.children) : e.hidden && !detailQuery[who][e.path] ? [] : [e.path]));
  return flat(buildMenu(user, 'saas')).map((path) => path + (detailQuery[who][path] ?? ''));
}

/** The language in which the administrator tours every page of its menu; in the others it tours only its own. */
const ADMIN_WHOLE_TOUR: Lang = 'en';

/**
 * The pages a tour visits, and which of them the demo account has too. The administrator's project is empty: on
 * the pages the demo account also has, the administrator sees the same screens with less in them, which the demo
 * account's tour checks in every language with its furnished site. So the administrator's tour takes in every
 * page in one language (photographed and read, without axe and the phone again), and elsewhere only the pages
 * the demo account has not (push, the outbox).
 */
async function tourPages(who: keyof typeof ACCOUNTS, login: LoginResult, lang: Lang): Promise<{ paths: string[]; demoHas: Set<string> }> {
  const pages = pagesOf(login.user, who);
  if (who === 'demo') return { paths: pages, demoHas: new Set() };
  const demoHas = new Set(pagesOf((await signIn('demo')).user, 'demo').map((path) => path.split('?')[0]!));
  return { paths: lang === ADMIN_WHOLE_TOUR ? pages : pages.filter((path) => !demoHas.has(path.split('?')[0]!)), demoHas };
}

let requests: RequestTracker;

/** Opens a page of the tour in the app (followInApp), so each page costs what it costs a user. */
async function openInApp(p: Page, path: string) {
  requests.navigated();
  await followInApp(p, path);
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
  await storeSession(site.page, site.server.url, login, lang);
  const folder = join(TOUR_DIR, lang);
  await mkdir(folder, { recursive: true });
  const seen: Record<string, string[]> = {};
  const { paths, demoHas } = await tourPages(who, login, lang);
  expect(paths.length).toBeGreaterThan(0);
  await site.page.goto(`${site.server.url}${paths[0]}`);
  for (const path of paths) {
    const problems: string[] = (site.problems = []);
    if (path !== paths[0]) await openInApp(site.page, path);
    // The page drawn, not only the address changed: the previous page stays while the next one loads.
    await site.page.locator(`.lg-header[data-page="${path.split('?')[0]}"]`).waitFor();
    await settled(site.page, requests);
    const name = `${who}${path.split('?')[0]!.replaceAll('/', '-')}`;
    await site.page.screenshot({ path: join(folder, `${name}.png`) });
    const text = await site.page.locator('body').innerText();
    const key = keyShown(text);
    if (key) problems.push(`catalogue key shown: ${key}`);
    for (const header of await cutHeaders(site.page)) problems.push(`column header cut: ${header}`);
    for (const hint of await site.page.evaluate(cutPlaceholdersInPage)) problems.push(`placeholder cut: ${hint}`);
    // The administrator's emptier copy of a page the demo account has: axe and the phone checked the furnished one.
    const checkedFurnished = demoHas.has(path.split('?')[0]!);
    if (AXE_LANGS.includes(lang) && !checkedFurnished)
      for (const violation of await lastingViolations(site.page)) problems.push(`axe: ${violation}`);
    if (PHONE_LANGS.includes(lang) && !checkedFurnished)
      for (const problem of await onPhone(site.page, join(folder, `phone-${name}.png`))) problems.push(`on a phone: ${problem}`);
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
  await settled(p, requests);
  const again = new Set(await seriousViolations(p));
  return first.filter((violation) => again.has(violation));
}

/** Axe's rules hardly depend on the language: the tour runs them in one Latin and one CJK catalogue. */
const AXE_LANGS: readonly Lang[] = ['en', 'ja'];

/**
 * The phone's checks (sideways scrolling, touch targets, cut labels) in one Latin and one CJK catalogue, as for
 * axe: the layout does not depend on the language, and the Japanese catalogue is half as wide again as either
 * Chinese one (katakana), so what fits a phone in Japanese fits in Chinese.
 */
const PHONE_LANGS: readonly Lang[] = ['en', 'ja'];

/**
 * The same page at a phone's width, photographed, then back at the desktop's: the layout follows the
 * window's width, so resizing the page shows what a phone shows. Answers what does not fit a phone there.
 */
async function onPhone(p: Page, file: string): Promise<string[]> {
  await p.setViewportSize(PHONE.viewport);
  await settled(p, requests);
  // Charts follow their box's size a frame or more after the window changes: the page is given a few seconds to
  // fit, and what still runs over is reported.
  await poll(async () => (await p.evaluate(sidewaysOverflowInPage)).length === 0, 'the page fits the phone', {
    timeoutMs: 3000,
    everyMs: 100,
  }).catch(() => undefined);
  await p.screenshot({ path: file });
  const found = [
    ...(await p.evaluate(sidewaysOverflowInPage)),
    ...(await p.evaluate(smallTouchTargetsInPage, 44)),
    ...(await p.evaluate(cutLabelsInPage)),
    ...(await p.evaluate(cutPlaceholdersInPage)).map((hint) => `placeholder cut: ${hint}`),
  ];
  await p.setViewportSize(DESKTOP);
  return found;
}

/** The pages before signing in. */
const PUBLIC_PAGES = ['/user/login', '/user/tel-login', '/user/registered', '/user/tel-registered', '/user/forgetPwd'];

async function publicTour(lang: Lang) {
  await site.page.goto(`${site.server.url}/user/login`);
  await site.page.evaluate((language) => {
    localStorage.clear();
    localStorage.setItem('lang', language);
  }, lang);
  const folder = join(TOUR_DIR, lang);
  await mkdir(folder, { recursive: true });
  const seen: Record<string, string[]> = {};
  for (const path of PUBLIC_PAGES) {
    const problems: string[] = (site.problems = []);
    await site.page.goto(`${site.server.url}${path}`);
    await site.page.locator('form button[type=submit]').waitFor();
    await settled(site.page, requests);
    const name = `public${path.replaceAll('/', '-')}`;
    await site.page.screenshot({ path: join(folder, `${name}.png`) });
    const key = keyShown(await site.page.locator('body').innerText());
    if (key) problems.push(`catalogue key shown: ${key}`);
    for (const hint of await site.page.evaluate(cutPlaceholdersInPage)) problems.push(`placeholder cut: ${hint}`);
    if (AXE_LANGS.includes(lang)) for (const violation of await lastingViolations(site.page)) problems.push(`axe: ${violation}`);
    if (PHONE_LANGS.includes(lang))
      for (const problem of await onPhone(site.page, join(folder, `phone-${name}.png`))) problems.push(`on a phone: ${problem}`);
    if (problems.length) seen[path] = problems;
  }
  expect(seen).toEqual({});
}

/**
 * A bound on one account's tour, not an expectation of it: some thirty pages, each waited for, photographed twice
 * and checked, take a few minutes on a busy two-core machine.
 */
const TOUR_TIMEOUT_MS = 600_000;

/** The tour of every page before and after signing in, in one language. */
export function describeTour(lang: Lang) {
  describe(`a tour of every menu page on the demo site in ${lang}`, () => {
    it(`shows the sign-in and sign-up pages in ${lang} without an error`, async () => publicTour(lang), TOUR_TIMEOUT_MS);
    it(`shows the demo account's pages in ${lang} without an error`, async () => tour('demo', lang), TOUR_TIMEOUT_MS);
    const adminPages = lang === ADMIN_WHOLE_TOUR ? 'pages' : 'own pages';
    it(`shows the administrator's ${adminPages} in ${lang} without an error`, async () => tour('admin', lang), TOUR_TIMEOUT_MS);
  });
}
