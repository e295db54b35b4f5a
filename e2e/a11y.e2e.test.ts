import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { authEndpoints, type Lang } from '@lumigrid/contract';
import { api } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { settled, trackRequests, type RequestTracker } from './support/settled.ts';
import { openBrowser, recordApiCalls, reportFailure, screenshot, storeSession, type TestBrowser } from './support/browser.ts';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';

// Issue 28, item 6: the sign-in and a dialog form work from the keyboard alone, every stop of the sign-in's
// tab order is visible and shows where the keyboard is, and axe-core finds nothing serious or critical on a
// few pages in English and Chinese (the tour runs the same check on every page).

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let requests: RequestTracker;
let journal: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  page = browser.page;
  requests = trackRequests(page);
  page.setDefaultTimeout(15_000);
  journal = recordApiCalls(page);
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await reportFailure(page, 'a11y', context.task.name, journal);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface TabStop {
  /** The stop as a person hears it: its role or tag and its accessible name or placeholder. */
  name: string;
  /** Drawn on the screen with a size (not a zero-size or off-screen element). */
  shown: boolean;
  /** An outline or a focus shadow on the element, or on the box antd draws for it. */
  ring: boolean;
}

/** Where the keyboard is now. Runs in the page. */
function focusedInPage(): TabStop | null {
  const element = document.activeElement as HTMLElement | null;
  if (!element || element === document.body) return null;
  const box = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  const shown = box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0 && style.visibility !== 'hidden';
  // antd, and the sign-in pages' light fields, draw a field's focus on its wrapper, and a checkbox's on the box
  // beside its transparent input.
  const drawn = [
    element,
    element.closest('.ant-input-affix-wrapper, .ant-input-number, .ant-select-selector, .ant-picker, .lg-input'),
    element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio') ? element.nextElementSibling : null,
  ].filter((candidate): candidate is Element => candidate !== null);
  const ring = drawn.some((candidate) => {
    const look = getComputedStyle(candidate);
    return (look.outlineStyle !== 'none' && parseFloat(look.outlineWidth) > 0) || look.boxShadow !== 'none';
  });
  const label = element.getAttribute('aria-label') ?? element.getAttribute('placeholder') ?? element.innerText.trim();
  return { name: `${element.getAttribute('role') ?? element.tagName.toLowerCase()} "${label}"`, shown, ring };
}

/** Presses Tab until the focus leaves the page or comes back round, and answers each stop on the way. */
async function tabStops(p: Page, limit = 40): Promise<TabStop[]> {
  const stops: TabStop[] = [];
  for (let i = 0; i < limit; i++) {
    await p.keyboard.press('Tab');
    const stop = await p.evaluate(focusedInPage);
    if (!stop || stops[0]?.name === stop.name) break;
    stops.push(stop);
  }
  return stops;
}

async function useLanguage(lang: Lang) {
  await page.goto(`${server.url}/user/login`);
  await page.evaluate((language) => {
    localStorage.clear();
    localStorage.setItem('lang', language);
  }, lang);
}

describe('the keyboard alone', () => {
  it('tabs through the sign-in: every stop visible with a focus ring, the password toggle reachable, no error for empty fields', async () => {
    await useLanguage('en');
    await page.goto(`${server.url}/user/login`);
    await page.locator('form button[type=submit]').waitFor();
    const stops = await tabStops(page);
    const names = stops.map((stop) => stop.name);
    expect(names).toEqual(
      expect.arrayContaining(['input "E-mail address"', 'input "Password"', 'button "Show password"', 'button "Sign in"']),
    );
    expect(stops.filter((stop) => !stop.shown).map((stop) => stop.name)).toEqual([]);
    expect(stops.filter((stop) => !stop.ring).map((stop) => stop.name)).toEqual([]);
    // Leaving the empty fields is not a mistake: nothing is reported until the form is sent.
    expect(await page.locator('.lg-field__error').count()).toBe(0);
  });

  it('shows the password with the keyboard and signs in with Enter', async () => {
    await page.goto(`${server.url}/user/login`);
    const password = page.getByRole('textbox', { name: 'Password', exact: true });
    await page.getByRole('textbox', { name: 'E-mail address' }).fill('admin');
    await password.fill(ADMIN_PASSWORD);
    await password.press('Tab');
    const toggle = page.getByRole('button', { name: 'Show password' });
    expect(await toggle.evaluate((button) => button === document.activeElement)).toBe(true);
    await screenshot(page, 'a11y-password-toggle-focused');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Hide password', pressed: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Password', exact: true }).getAttribute('type')).toBe('text');
    await password.press('Enter');
    await page.waitForURL((url) => !url.pathname.startsWith('/user'));
  });

  it('opens a dialog form with the keyboard in its first field, and Enter saves it', async () => {
    await page.goto(`${server.url}/system/center`);
    await page.getByRole('button', { name: 'Edit info' }).click();
    const dialog = page.getByRole('dialog');
    const name = dialog.getByLabel('Name', { exact: true });
    await expect.poll(() => name.evaluate((field) => field === document.activeElement)).toBe(true);
    await screenshot(page, 'a11y-dialog-first-field');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Keyboard Admin');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.ant-descriptions').getByText('Keyboard Admin').waitFor();
  });
});

describe('the layout by keyboard', () => {
  it('reaches the account menu, the side menu arrow and the table toolbar, each named and shown with a focus ring', async () => {
    const login = await api(server.url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
    await storeSession(page, server.url, login, 'en');
    await page.goto(`${server.url}/project/list`);
    await page.locator('.ant-pro-table-list-toolbar-setting-item [role=button]').first().waitFor();
    const stops = await tabStops(page, 60);
    const names = stops.map((stop) => stop.name);
    // The account's name as shown (another journey here renames the administrator).
    const accountName = (await page.getByTestId('user-menu').innerText()).trim();
    for (const name of ['button "Side menu"', `button "${accountName}"`, 'button "Reload"', 'button "Density"', 'button "Columns"'])
      expect(names).toContain(name);
    expect(stops.filter((stop) => !stop.ring || !stop.shown).map((stop) => stop.name)).toEqual([]);

    // The account menu opens from the keyboard with the focus in it, and Escape closes it.
    const account = page.getByRole('button', { name: accountName, exact: true });
    await account.focus();
    await page.keyboard.press('Enter');
    const signOut = page.getByRole('menuitem', { name: 'Sign out' });
    await signOut.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role=menu]') !== null)).toBe(true);
    await screenshot(page, 'a11y-account-menu-by-keyboard');
    await page.keyboard.press('Escape');
    await signOut.waitFor({ state: 'hidden' });

    // The toolbar's density control opens its choices on Enter.
    await page.getByRole('button', { name: 'Density' }).focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('menuitem', { name: /Compact|Small/ })
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
  });
});

describe('axe-core finds nothing serious or critical', () => {
  for (const lang of ['en', 'cn'] as const) {
    it(`on the sign-in, sign-up and password reset pages in ${lang}`, async () => {
      await useLanguage(lang);
      const found: Record<string, string[]> = {};
      for (const path of ['/user/login', '/user/registered', '/user/forgetPwd']) {
        await page.goto(`${server.url}${path}`);
        await page.locator('form button[type=submit]').waitFor();
        await settled(page, requests);
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      }
      expect(found).toEqual({});
    });

    it(`on the home page, the project list and the user centre in ${lang}`, async () => {
      const login = await api(server.url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
      await storeSession(page, server.url, login, lang);
      const found: Record<string, string[]> = {};
      for (const path of ['/home', '/project/list', '/system/center']) {
        await page.goto(`${server.url}${path}`);
        await page.locator('.ant-pro-layout').waitFor();
        await settled(page, requests);
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      }
      expect(found).toEqual({});
    });
  }
});
