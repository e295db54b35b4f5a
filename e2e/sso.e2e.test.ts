import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { OPERATE_AUTH, USER_AUTH, authEndpoints, ssoEndpoints, userEndpoints, type LoginUser } from '@lumigrid/contract';
import { ssoSettingsFor, startIdentityProvider, type TestIdentityProvider } from '../apps/server/src/test/oidc-provider.fixtures.ts';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';
import { api, signIn } from './support/api.ts';
import { openBrowser, recordApiCalls, reportFailure, screenshot, type TestBrowser } from './support/browser.ts';

// A person of an organisation with its own OpenID provider (oidc-provider, run here) signs in to Lumigrid for the
// first time: from the sign-in page to the provider's login form and back, signed in as a new sub-account with
// the authority the owner chose; signing in again finds the same sub-account. The server runs in server mode,
// where an on-premise provider may be reached over plain http.

let server: RunningServer;
let idp: TestIdentityProvider;
let browser: TestBrowser;
let page: Page;
let journal: string[] = [];

const OWNER = { account: 'acme-owner', name: 'Acme', password: 'Owner-Pass-2026' };
/** A sub-account made by the owner with a password, before single sign-on came. */
const LOCAL = { account: 'acme-local', name: 'Local', password: 'Local-Pass-2026' };
const ALICE = { login: 'alice', password: 'alice-at-idp', email: 'alice@acme.test', name: 'Alice Smith' };

beforeAll(async () => {
  server = await startServer({ MODE: 'server' });
  idp = await startIdentityProvider({ redirectUris: [`${server.url}/user/sso/callback`], users: { [ALICE.login]: ALICE } });
  const admin = await signIn(server.url, 'admin', ADMIN_PASSWORD);
  await api(server.url, userEndpoints.add, { body: { userAuth: USER_AUTH.account, ...OWNER } }, { token: admin });
  const owner = await signIn(server.url, OWNER.account, OWNER.password);
  await api(
    server.url,
    userEndpoints.add,
    { body: { userAuth: USER_AUTH.subAccount, operateAuth: OPERATE_AUTH.viewOnly, ...LOCAL } },
    { token: owner },
  );
  await api(server.url, ssoEndpoints.saveSettings, { body: ssoSettingsFor(idp, { localSignInOff: true }) }, { token: owner });
  browser = await openBrowser();
  page = browser.page;
  journal = recordApiCalls(page);
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await reportFailure(page, 'sso', context.task.name, journal);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await idp?.close();
});

const signedInUser = async () => JSON.parse((await page.evaluate(() => localStorage.getItem('user'))) ?? 'null') as LoginUser;

describe('single sign-on in a real browser', () => {
  it('signs a new person in through the provider’s login form as a sub-account with the default authority, and again as the same one', async () => {
    await page.goto(`${server.url}/user/tel-login`);
    await screenshot(page, 'sso-sign-in-page');
    await page.getByTestId('sso-open').click();
    await page.getByTestId('sso-domain').fill(ALICE.email);
    await page.getByTestId('sso-continue').click();
    await page.waitForURL(`${idp.issuer}/**`);
    await page.getByLabel('Login').fill(ALICE.login);
    await page.getByLabel('Password').fill(ALICE.password);
    await page.getByRole('button', { name: 'Sign in at the provider' }).click();
    await page.waitForURL(/\/home$/);
    const first = await signedInUser();
    expect(first).toMatchObject({ account: ALICE.email, user_auth: USER_AUTH.subAccount, operate_auth: OPERATE_AUTH.controllable });
    await page.getByTestId('user-menu').click();
    await screenshot(page, 'sso-signed-in');

    // Signed out of Lumigrid, not of the provider: the next sign-in passes its form and finds the same sub-account.
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/user\/tel-login$/);
    await page.getByTestId('sso-open').click();
    await page.getByTestId('sso-domain').fill('acme.test');
    await page.getByTestId('sso-continue').click();
    await page.waitForURL(/\/home$/);
    expect((await signedInUser()).id).toBe(first.id);

    // The owner switched password sign-in off for the account's users: the right password no longer opens a session.
    const refused = await fetch(`${server.url}${authEndpoints.login.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: LOCAL.account, password: LOCAL.password }),
    });
    expect(((await refused.json()) as { code: number }).code).toBe(103004);
  });
});
