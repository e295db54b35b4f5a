/**
 * What the browser downloads: the sign-in page and the floor plan of the demo site, loaded with an empty cache
 * in headless Chromium, as the server sends them (brotli or gzip) against a baseline in the same run, the
 * same pages asked for with `Accept-Encoding: identity` (what every page cost before compression). Reports
 * the bytes on the wire for scripts and for everything, the sign-in page's largest contentful paint, and the
 * files a reload asks for again. Needs the built client (`npm run build -w @lumigrid/web`) and
 * /usr/bin/chromium. See bench/README.md ("Delivery").
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';
import { authEndpoints } from '@lumigrid/contract';
import { api, poll } from '../e2e/support/api.ts';
import { startServer } from '../e2e/support/server.ts';
import { quantile } from './devices-site.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(args.runs);
const DEMO_PASSWORD = 'Demo-Pass-2026';

if (!existsSync(resolve(import.meta.dirname, '../apps/web/dist/index.html'))) {
  console.error('build the client first: npm run build -w @lumigrid/web');
  process.exit(1);
}

interface Load {
  scriptBytes: number;
  allBytes: number;
  requests: number;
  lcpMs: number | null;
  /** Requests a reload sends to the server (not answered from the browser's cache). */
  reloadRequests: number;
}

const server = await startServer({ DEMO: 'on', DEMO_PASSWORD });
const login = await api(server.url, authEndpoints.login, { body: { account: 'demo@lumigrid.local', password: DEMO_PASSWORD } });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

/** Loads a page in a fresh context and adds up what came over the wire (encoded body sizes). */
async function load(path: string, identity: boolean, signedIn: boolean): Promise<Load> {
  // The service worker keeps built files it passed on and answers later loads from them (its requests
  // report no bytes), so with it the second page would count only what the first did not fetch.
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  try {
    const page: Page = await context.newPage();
    if (identity) await page.setExtraHTTPHeaders({ 'accept-encoding': 'identity' });
    if (signedIn) {
      await page.goto(`${server.url}/user/login`);
      // Entering /user ends any session: the token goes in once the sign-in page has mounted, or it is dropped.
      await page.locator('form button[type=submit]').waitFor();
      await page.evaluate(
        ([token, user]) => {
          localStorage.setItem('token', token);
          localStorage.setItem('user', JSON.stringify(user));
        },
        [login.access_token, login.user] as const,
      );
      await context.clearCookies();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
    }
    const requests: Array<Promise<{ type: string; bytes: number }>> = [];
    const count = (request: Request) =>
      requests.push(
        request.sizes().then((sizes) => ({ type: request.resourceType(), bytes: sizes.responseBodySize + sizes.responseHeadersSize })),
      );
    page.on('requestfinished', count);
    await page.goto(`${server.url}${path}`);
    await page.waitForLoadState('networkidle');
    if (signedIn) await page.locator('[data-testid=device-canvas]').waitFor();
    const lcpMs = await page.evaluate(
      () =>
        new Promise<number | null>((done) => {
          new PerformanceObserver((list) => done(list.getEntries().at(-1)?.startTime ?? null)).observe({
            type: 'largest-contentful-paint',
            buffered: true,
          });
          setTimeout(() => done(null), 1000);
        }),
    );
    // The reload is counted below by request, not by size: asking a request of the reload its size could still
    // be under way when the context closes, and fail the run.
    page.off('requestfinished', count);
    const seen = await Promise.all(requests);
    // On a reload, what the browser still asks the server for (a 304 included) rather than takes from its cache.
    let reloadRequests = 0;
    const network = await context.newCDPSession(page);
    await network.send('Network.enable');
    network.on('Network.requestWillBeSent', () => reloadRequests++);
    network.on('Network.requestServedFromCache', () => reloadRequests--);
    await page.reload();
    await page.waitForLoadState('networkidle');
    return {
      scriptBytes: seen.filter((r) => r.type === 'script').reduce((n, r) => n + r.bytes, 0),
      allBytes: seen.reduce((n, r) => n + r.bytes, 0),
      requests: seen.length,
      lcpMs,
      reloadRequests,
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => quantile(values, 0.5);
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

try {
  await poll(async () => (await fetch(`${server.url}/user/login`)).ok, 'the server');
  const rows: string[] = [];
  for (const [label, path, signedIn] of [
    ['sign-in page', '/user/login', false],
    ['floor plan', '/device/control', true],
  ] as const) {
    const sent: Load[] = [];
    const plain: Load[] = [];
    for (let run = 0; run < RUNS; run++) {
      plain.push(await load(path, true, signedIn));
      sent.push(await load(path, false, signedIn));
    }
    const m = (loads: Load[], key: keyof Load) => median(loads.map((l) => l[key] ?? 0));
    rows.push(
      `${label.padEnd(13)} scripts ${kb(m(sent, 'scriptBytes')).padStart(7)} (identity ${kb(m(plain, 'scriptBytes'))}, x${(m(sent, 'scriptBytes') / m(plain, 'scriptBytes')).toFixed(2)})` +
        `  all ${kb(m(sent, 'allBytes')).padStart(7)} (identity ${kb(m(plain, 'allBytes'))}, x${(m(sent, 'allBytes') / m(plain, 'allBytes')).toFixed(2)})` +
        `  requests ${m(sent, 'requests')}, again on reload ${m(sent, 'reloadRequests')}` +
        (signedIn ? '' : `  LCP ${Math.round(m(sent, 'lcpMs'))} ms (identity ${Math.round(m(plain, 'lcpMs'))} ms)`),
    );
  }
  console.log(`delivery, median of ${RUNS} loads with an empty cache, headless Chromium at 1440 x 900:`);
  for (const row of rows) console.log(`  ${row}`);
} finally {
  await browser.close();
  await server.stop();
}
