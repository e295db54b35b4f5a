import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { USER_AUTH, authEndpoints, endpointUrl, projectEndpoints, userEndpoints } from '@lumigrid/contract';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';
import { api } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { openBrowser, recordApiCalls, reportFailure, screenshot, storeSession, type TestBrowser } from './support/browser.ts';

// An account owner makes an API key in System > API keys, copies the secret the dialog shows once, an
// integrator's script calls the API with it, the page shows when and from where, and once the owner revokes
// the key its next call is refused.

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let journal: string[] = [];

const OWNER = { account: 'keys-owner', name: 'Keys Owner', password: 'Owner-Pass-2026' };

beforeAll(async () => {
  server = await startServer();
  const admin = await api(server.url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
  await api(server.url, userEndpoints.add, { body: { userAuth: USER_AUTH.account, ...OWNER } }, { token: admin.access_token });
  const login = await api(server.url, authEndpoints.login, { body: { account: OWNER.account, password: OWNER.password } });
  browser = await openBrowser();
  page = browser.page;
  journal = recordApiCalls(page);
  await storeSession(page, server.url, login);
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await reportFailure(page, 'api-keys', context.task.name, journal);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** What an integrator's script does: read the project tree with the key, answering the envelope's code. */
async function callWithKey(key: string): Promise<{ status: number; code: number }> {
  const response = await fetch(`${server.url}${endpointUrl(projectEndpoints.tree, { params: { id: '0' } })}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const envelope = (await response.json()) as { code: number };
  return { status: response.status, code: envelope.code };
}

describe('API keys in a real browser', () => {
  let secret: string;

  it('makes a key under System and shows its secret once', async () => {
    await page.goto(`${server.url}/system/center`);
    await page.getByRole('menuitem', { name: 'API keys' }).click();
    await page.waitForURL(/\/system\/apiKeys$/);
    await page.getByText('No API keys yet.').waitFor();
    await page.getByTestId('api-key-create').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('api-key-name').fill('Building management');
    await dialog.getByTestId('api-key-submit').click();
    const shown = dialog.getByTestId('api-key-secret');
    await shown.waitFor();
    secret = (await shown.innerText()).trim();
    expect(secret).toMatch(/^lg_[0-9]+_[A-Za-z0-9_-]{43}$/);
    await dialog.getByText('it is shown only this once').waitFor();
    await screenshot(page, 'api-keys-created');
    await dialog.getByTestId('api-key-done').click();
    await dialog.waitFor({ state: 'hidden' });
    // The list never shows the secret again.
    const row = page.locator('tr[data-testid^="api-key-row-"]', { hasText: 'Building management' });
    await row.getByText('Active').waitFor();
    expect(await page.content()).not.toContain(secret.split('_').slice(2).join('_'));
  });

  it('lets a script call with it, shows when and from where, and refuses its next call once revoked', async () => {
    expect(await callWithKey(secret)).toEqual({ status: 200, code: 0 });
    await page.reload();
    const row = page.locator('tr[data-testid^="api-key-row-"]', { hasText: 'Building management' });
    await row.locator('[data-testid^="api-key-last-used-"]').getByText('127.0.0.1').waitFor();
    await screenshot(page, 'api-keys-list');
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByTestId('api-key-revoke-ok').click();
    await row.getByText('Revoked').waitFor();
    expect(await callWithKey(secret)).toEqual({ status: 401, code: 101002 });
  });
});
