import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { LANGS, type Lang } from '@lumigrid/contract';
import cn from '../apps/web/src/i18n/cn.json';
import en from '../apps/web/src/i18n/en.json';
import ja from '../apps/web/src/i18n/ja.json';
import tc from '../apps/web/src/i18n/tc.json';
import { poll } from './support/api.ts';
import { PHONE, openBrowser, recordApiCalls, reportFailure, screenshot, type TestBrowser } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

// An installer adds the app to a phone's home screen on a branded host (ja.localhost, shipped in
// config/branding), then the site's server goes down: the app opens on a clear offline page in the phone's
// language instead of an error or stale values, and tries again from the keyboard.

const CATALOGUES: Record<Lang, typeof en> = { cn, tc, en, ja };

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let cdp: CDPSession;
let journal: string[] = [];
let origin: string;

beforeAll(async () => {
  server = await startServer();
  // Chromium resolves every *.localhost name to this machine and treats it as a secure origin.
  origin = `http://ja.localhost:${server.port}`;
  browser = await openBrowser({ ...PHONE, serviceWorkers: 'allow', ownProfile: true });
  page = browser.page;
  journal = recordApiCalls(page);
  cdp = await browser.context.newCDPSession(page);
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await reportFailure(page, 'installable', context.task.name, journal, server.output());
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the app on a home screen', () => {
  it("passes Chromium's installability check with the host's brand name and icon", async () => {
    await page.goto(`${origin}/user/login`);
    await page.locator('form button[type=submit]').waitFor();
    // The worker takes the page over once it has kept the shell (clients.claim on activation).
    await poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), 'the service worker controls the page');

    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string };
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toBe(`${origin}/test/ja.localhost/manifest.webmanifest`);
    const data = JSON.parse(manifest.data ?? '{}') as { name: string; display: string; icons: Array<{ src: string }> };
    expect(data).toMatchObject({ name: 'Lumigrid 照明クラウド', display: 'standalone' });

    // The tile draws the host's picture inlined, and a browser can draw it at a home screen's size.
    const icon = await page.evaluate(async (src) => {
      const answer = await fetch(src);
      const picture = new Image();
      picture.src = src;
      await picture.decode();
      return { type: answer.headers.get('content-type'), inlined: (await answer.text()).includes('<image'), width: picture.naturalWidth };
    }, data.icons[0]!.src);
    expect(icon).toEqual({ type: 'image/svg+xml', inlined: true, width: 512 });
  });

  it('opens on the offline page in the chosen language when the server has stopped, with no API call kept', async () => {
    await server.stop();
    await page.goto(`${origin}/device/control`);
    const title = page.getByRole('heading', { level: 1 });
    // No language chosen on this device: the host's own (Japanese) applies, as it does in the app.
    await expect.poll(() => title.textContent()).toBe(ja.offline.title);
    await expect.poll(() => page.locator('.offline-brand-name').textContent()).toBe('Lumigrid 照明クラウド');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
    expect(new URL(page.url()).pathname).toBe('/device/control');
    await screenshot(page, 'offline-phone-ja');

    // The API is the network's alone: nothing answers it from a cache.
    const apiAnswer = await page.evaluate(() =>
      fetch('/api1/system/info').then(
        () => 'answered',
        () => 'unreachable',
      ),
    );
    expect(apiAnswer).toBe('unreachable');

    for (const lang of LANGS) {
      await page.evaluate((chosen) => localStorage.setItem('lang', chosen), lang);
      await page.reload();
      await expect.poll(() => title.textContent(), { message: lang }).toBe(CATALOGUES[lang].offline.title);
      await expect.poll(() => page.getByRole('button').textContent()).toBe(CATALOGUES[lang].offline.retry);
    }

    // The keyboard reaches the one action; trying again says the server still does not answer.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(ja.offline.retry);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').textContent()).toBe(ja.offline.still);

    await page.evaluate(() => localStorage.setItem('lang', 'en'));
    await page.reload();
    await expect.poll(() => title.textContent()).toBe(en.offline.title);
    await screenshot(page, 'offline-phone-en');
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'offline-desktop-en');
  });
});
