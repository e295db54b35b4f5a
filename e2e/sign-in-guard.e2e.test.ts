import { LIMITS, USER_AUTH, authEndpoints, userEndpoints } from '@lumigrid/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CAPTCHA, startServer, type RunningServer } from './support/server.ts';
import { adminToken, api, poll } from './support/api.ts';
import { openBrowser, recordApiCalls, reportFailure, screenshot, type TestBrowser } from './support/browser.ts';

const ACCOUNT = 'guarded@example.com';
const PASSWORD = 'Guarded-Pass-2026';

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let journal: string[] = [];

beforeAll(async () => {
  // The guesses come from many addresses: the server trusts X-Forwarded-For as it would behind a proxy.
  server = await startServer({ TRUST_PROXY: 'true' });
  browser = await openBrowser();
  page = browser.page;
  journal = recordApiCalls(page);
  const token = await adminToken(server.url);
  await api(server.url, userEndpoints.add, { body: { userAuth: USER_AUTH.account, account: ACCOUNT, password: PASSWORD } }, { token });
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await reportFailure(page, 'sign-in-guard', context.task.name, journal);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A sign-in to the account from an address of its own; answers the business code. */
async function signInFrom(address: string, password: string): Promise<number> {
  const response = await fetch(`${server.url}${authEndpoints.login.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ account: ACCOUNT, password }),
  });
  return ((await response.json()) as { code: number }).code;
}

describe('the sign-in under guesses from many addresses', () => {
  it('asks a browser new to the account for the picture code, and signs in with it', async () => {
    for (let i = 0; i < LIMITS.signIn.account.captchaAfter; i++) expect(await signInFrom(`10.77.${i}.1`, 'Wrong-Pass-2026')).toBe(100018);
    // Once the first wait has passed, an attempt without a picture code is asked for one (and not counted).
    let asked = 0;
    await poll(
      async () => (await signInFrom(`10.78.${asked++}.1`, 'Wrong-Pass-2026')) === 100021,
      'the account to ask for the picture code',
    );

    await page.goto(`${server.url}/user/login`);
    await page.getByPlaceholder('E-mail address').fill(ACCOUNT);
    await page.getByPlaceholder('Password').fill(PASSWORD);
    await page.locator('form button[type=submit]', { hasText: 'Sign in' }).click();
    await page.getByText('Too many failed sign-ins for this account').waitFor();
    await page.getByRole('img', { name: 'Picture code' }).waitFor();
    await screenshot(page, 'login-captcha-en');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'login-captcha-en-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.getByPlaceholder('Picture code').fill(CAPTCHA);
    await page.locator('form button[type=submit]', { hasText: 'Sign in' }).click();
    await page.waitForURL(/\/home$/);
  });
});
