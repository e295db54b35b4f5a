import { accountEndpoints } from '@lumigrid/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, CAPTCHA, startServer, type RunningServer } from './support/server.ts';
import { api, latestCodeFor } from './support/api.ts';
import { openBrowser, recordApiCalls, reportFailure, screenshot, type TestBrowser } from './support/browser.ts';

let server: RunningServer;
let browser: TestBrowser;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  page = browser.page;
  // What the browser asked and was told, printed when a journey fails.
  journal = recordApiCalls(page);
});

let journal: string[] = [];
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await reportFailure(page, 'foundation', context.task.name, journal);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const storedToken = () => page.evaluate(() => window.localStorage.getItem('token'));

async function chooseLanguage(label: string) {
  await page
    .locator('button[aria-label]')
    .filter({ has: page.locator('.anticon-global') })
    .first()
    .click();
  await page.getByRole('menuitem', { name: label }).click();
}

describe('the foundation in a real browser', () => {
  it('sends a visitor without a session from a guarded page to the e-mail sign-in of SaaS mode, remembering the page', async () => {
    await page.goto(`${server.url}/system/center`);
    await page.waitForURL(/\/user\/login\?redirect=%2Fsystem%2Fcenter$/);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  });

  it('opens on the e-mail sign-in in English with tabs and a sign-up link', async () => {
    await page.goto(server.url);
    await page.waitForURL(/\/user\/login$/);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await page.getByRole('tab', { name: 'E-mail' }).isVisible()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Phone' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Sign up' }).isVisible()).toBe(true);
    await screenshot(page, 'login-en');
  });

  const mail = `ann.${Date.now()}@example.com`;
  const password = 'Lights-On-2026';

  it('signs up by e-mail with the code from the outbox', async () => {
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(/\/user\/registered$/);
    // The sign-in page shows the same e-mail field until the sign-up page has loaded; and the picture
    // code's id arrives with the picture: wait for the picture.
    await page.getByRole('img', { name: 'Picture code' }).waitFor();
    await page.getByPlaceholder('E-mail address').fill(mail);
    await page.getByPlaceholder('Picture code').fill(CAPTCHA);
    await page.getByRole('button', { name: 'Send code' }).click();
    // The button counts down once the server accepted the request.
    await page.getByRole('button', { name: /\d+\s*s/ }).waitFor();
    const code = await latestCodeFor(server.url, mail);
    await page.getByPlaceholder('Verification code').fill(code);
    await page.getByPlaceholder('Password', { exact: true }).fill(password);
    await page.getByPlaceholder(/confirm/i).fill(password);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.waitForURL(/\/user\/register-result/);
    await page.getByText(`The account ${mail} was created`).waitFor();
    // "Sign in now" opens the sign-in with the new address filled in.
    await page.getByRole('button', { name: 'Sign in now' }).click();
    await page.waitForURL(/\/user\/login\?account=/);
    await expect.poll(() => page.getByPlaceholder('E-mail address').inputValue()).toBe(mail);
  });

  it('refuses a wrong password with the server message and no session', async () => {
    await page.goto(`${server.url}/user/login`);
    await page.getByPlaceholder('E-mail address').fill(mail);
    await page.getByPlaceholder('Password').fill('Wrong-Pass-2026');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page
      .getByText(/password/i)
      .and(page.locator('.ant-message-notice-content, .ant-message-notice-content *'))
      .first()
      .waitFor();
    expect(await storedToken()).toBeNull();
  });

  it('signs in and lands in the shell: menu, breadcrumb, user menu and version footer', async () => {
    // A browser on a LAN without internet may believe it is offline; the platform must still answer.
    await page.evaluate(() => window.dispatchEvent(new Event('offline')));
    await page.getByPlaceholder('Password').fill(password);
    // After the refused attempt antd may leave its zero-width "loading" icon in the button when the leave
    // motion never ends (seen under CPU load), which turns the button's accessible name into "loading Sign
    // in"; the form's submit button is the same button either way.
    await page.locator('form button[type=submit]', { hasText: 'Sign in' }).click();
    await page.waitForURL(/\/home$/);
    await page.locator('.ant-pro-sider').waitFor();
    expect(await page.locator('.ant-pro-sider').boundingBox()).toMatchObject({ width: 256 });
    expect(await page.getByText('Version 2.7.6').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toContain(mail);
    expect(await storedToken()).toMatch(/.{20,}/);
    // The tab names the page before the brand.
    await expect.poll(() => page.title()).toMatch(/^Home · ./);
    await screenshot(page, 'shell-en');
  });

  it('tells a new account what to do next where its lists are empty', async () => {
    await page.goto(`${server.url}/gateway/list`);
    await page.getByText('Bind one by the MAC address on its label', { exact: false }).waitFor();
    await page.goto(`${server.url}/device/list/list`);
    await page.getByText('Open a gateway and import its devices', { exact: false }).waitFor();
    await screenshot(page, 'empty-devices-en');
    await page.goto(`${server.url}/home`);
  });

  it('switches every text to Japanese, the shell included, and keeps the choice', async () => {
    await chooseLanguage('日本語');
    await page.getByRole('menuitem', { name: 'ホーム' }).first().waitFor();
    expect(await page.getByText('バージョン 2.7.6').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
    // The account keeps the choice, so mails and server messages follow it.
    const token = (await storedToken()) ?? '';
    await expect.poll(async () => (await api(server.url, accountEndpoints.profile, {}, { token })).lang, { timeout: 5_000 }).toBe('ja');
    await screenshot(page, 'shell-ja');
    await page.reload();
    await page.getByRole('menuitem', { name: 'ホーム' }).first().waitFor();
  });

  it('signs out: the token dies on the server and the browser is sent back to sign in', async () => {
    const token = await storedToken();
    await page.getByTestId('user-menu').hover();
    await page.getByText('ログアウト').click();
    await page.waitForURL(/\/user\/login$/);
    expect(await storedToken()).toBeNull();
    const me = await fetch(`${server.url}${accountEndpoints.profile.path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);
    expect((await me.json()).code).toBe(250004);
    // The language chosen on this device stays after sign-out.
    await page.getByRole('button', { name: 'ログイン', exact: true }).waitFor();
    await screenshot(page, 'login-ja');
    // A deep link after signing out by e-mail opens the e-mail sign-in again, not the phone one.
    await page.goto(`${server.url}/home`);
    await page.waitForURL(/\/user\/login\?redirect=%2Fhome$/);
  });

  it("shows antd's own texts in the chosen language (the administrator's outbox pager)", async () => {
    await page.goto(`${server.url}/user/tel-login`);
    await page.getByRole('tab', { name: 'メール' }).click();
    await page.getByPlaceholder('メールアドレス').fill('admin');
    await page.getByPlaceholder('パスワード').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    // The platform administrator lands on the accounts it administers.
    await page.waitForURL(/\/system\/account$/);
    await page.goto(`${server.url}/system/outbox`);
    // The sign-up code mail of the journey above is in the outbox.
    await page.getByText('Your Lumigrid sign-up code').first().waitFor();
    await expect.poll(() => page.locator('.ant-pagination').textContent()).toContain('ページ');
    await chooseLanguage('English');
    await expect.poll(() => page.locator('.ant-pagination').textContent(), { timeout: 10_000 }).toContain('/ page');
  });
});
