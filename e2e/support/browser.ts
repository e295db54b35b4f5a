import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { SIGN_OUT_KEYS } from '../../apps/web/src/api/session.ts';
import { REPO_ROOT, provided } from './server.ts';

export const SCREENSHOT_DIR = join(REPO_ROOT, 'e2e/screenshots');

/**
 * How long a journey waits for what it expects (a locator, a polled answer) before it fails. Every wait is for
 * a condition, so a generous bound costs nothing when things work and keeps a busy machine from failing them.
 */
export const PATIENCE_MS = 45_000;

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** A phone in the hand (issue 28): 390 x 844 CSS pixels, a touch screen, no mouse to hover with. */
export const PHONE = { viewport: { width: 390, height: 844 }, touch: true } as const;

/** Debian's Chromium, as every journey starts it (CHROMIUM_PATH for another build). */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
};

/**
 * A fresh browser for one journey: a new context of the run's shared Chromium (global-setup.ts), which shares no
 * cookies, storage or cache with any other; or, for switches of its own (`args`), `ownProfile`, or outside the
 * run's setup, a Chromium of its own with a fresh profile. `touch` emulates a phone's touch screen (taps, touch
 * events, no hover), as `PHONE` does at a phone's size. Service workers are blocked unless `serviceWorkers: 'allow'`.
 */
export async function openBrowser(
  options: {
    viewport?: { width: number; height: number };
    touch?: boolean;
    serviceWorkers?: 'allow' | 'block';
    /** More Chromium switches (a fake camera: `fakeCamera`). */
    args?: readonly string[];
    /** A Chromium of its own with a profile on disk: Chromium installs no app from a context without one. */
    ownProfile?: boolean;
  } = {},
): Promise<TestBrowser> {
  const contextOptions = {
    viewport: options.viewport ?? { width: 1440, height: 900 },
    isMobile: options.touch ?? false,
    hasTouch: options.touch ?? false,
    locale: 'en-US',
    // The app turns antd's animations off for reduced motion, so what a journey waits for is there at once.
    reducedMotion: 'reduce',
    // The app's service worker (offline page) is the installable journey's subject; elsewhere a page talks to
    // the server directly, as the journeys were written for (with it, the gateways journey's pages stall).
    serviceWorkers: options.serviceWorkers ?? 'block',
  } satisfies BrowserContextOptions;
  const endpoint = options.args?.length || options.ownProfile ? undefined : provided('browserEndpoint');
  const opened = endpoint ? await newContextOf(endpoint, contextOptions) : await ownChromium(options.args ?? [], contextOptions);
  opened.context.setDefaultTimeout(PATIENCE_MS);
  return opened;
}

async function newContextOf(endpoint: string, options: BrowserContextOptions): Promise<TestBrowser> {
  const browser = await chromium.connect(endpoint);
  const context = await browser.newContext(options);
  return {
    context,
    page: await context.newPage(),
    async close() {
      await context.close();
      await browser.close();
    },
  };
}

async function ownChromium(args: readonly string[], options: BrowserContextOptions): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'lumigrid-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { ...CHROMIUM, args: [...CHROMIUM.args, ...args], ...options });
  return {
    context,
    page: context.pages()[0] ?? (await context.newPage()),
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Chromium switches for a camera that films `videoFile` (.y4m or .mjpeg) over and over, granted without asking.
 */
export function fakeCamera(videoFile: string): string[] {
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${videoFile}`];
}

/**
 * Opens a page of the app as its menu does, without loading the document again: the router follows the address
 * (a history entry and its popstate), so the screen's code is fetched as a user's click fetches it.
 */
export async function followInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}

/** Saves a screenshot under e2e/screenshots (git-ignored) for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

/** Records the API answers a page receives, to print when a journey fails. */
export function recordApiCalls(page: Page): string[] {
  const journal: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api')) journal.push(`--> ${request.method()} ${request.url()}`);
  });
  page.on('requestfailed', (request) => {
    if (request.url().includes('/api')) journal.push(`failed ${request.method()} ${request.url()}: ${request.failure()?.errorText ?? ''}`);
  });
  page.on('response', (response) => {
    if (response.url().includes('/api')) journal.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') journal.push(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => journal.push(`page error: ${error.message}`));
  return journal;
}

/** On a failed test: a screenshot named after it, the last API answers and whatever else helps. */
export async function reportFailure(page: Page, prefix: string, testName: string, journal: string[], ...extra: string[]) {
  await screenshot(page, `failed-${prefix}-${testName.slice(0, 40).replace(/\W+/g, '-')}`);
  // The buttons as the accessibility queries see them (a stray icon label or a hiding ancestor explains
  // many "waiting for getByRole" timeouts).
  const buttons = await page
    .evaluate(() =>
      Array.from(document.querySelectorAll('button')).map((button) => {
        const hiddenBy = button.closest('[aria-hidden="true"], [inert]');
        return `${button.outerHTML.slice(0, 300)}${hiddenBy ? ` (hidden by <${hiddenBy.tagName.toLowerCase()} class="${hiddenBy.className}">)` : ''}`;
      }),
    )
    .catch(() => []);
  console.log([`url: ${page.url()}`, journal.slice(-30).join('\n'), ...buttons, ...extra].join('\n'));
}

/**
 * Stores a session signed in through the API as the sign-in page does (the form is the foundation journey's): what
 * signing out removes is removed, then the new session is written, on a blank page of the app's origin, so that
 * no journey pays for loading the whole app once more only to write to its storage.
 */
export async function storeSession(page: Page, baseUrl: string, login: { access_token: string; user: unknown }, lang = 'en') {
  const blank = `${baseUrl}/e2e-blank-page`;
  await page.route(blank, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }));
  try {
    await page.goto(blank);
  } finally {
    await page.unroute(blank);
  }
  await page.evaluate(
    ([signOutKeys, accessToken, user, language]) => {
      for (const key of signOutKeys) localStorage.removeItem(key);
      localStorage.setItem('token', accessToken);
      localStorage.setItem('user', JSON.stringify(user));
      localStorage.setItem('lang', language);
    },
    [SIGN_OUT_KEYS, login.access_token, login.user, lang] as const,
  );
}
