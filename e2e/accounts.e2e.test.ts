import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { authEndpoints, projectEndpoints } from '@lumigrid/contract';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';
import { api } from './support/api.ts';
import { encodePng, type Rgb } from '../apps/server/src/test/png.ts';
import { openBrowser, reportFailure, screenshot, storeSession, type TestBrowser } from './support/browser.ts';

// The account screens in a real browser: the administrator creates an account, the account a view-only
// sub-account, which sees no account screen and no edit buttons, and is signed out the moment it is disabled.

let server: RunningServer;
let admin: TestBrowser;
let viewer: TestBrowser;

const PASSWORD = 'Lights-On-2026';

beforeAll(async () => {
  server = await startServer();
  admin = await openBrowser();
  viewer = await openBrowser();
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await reportFailure(admin.page, 'accounts', context.task.name, [], server.output().slice(-2000));
    await reportFailure(viewer.page, 'accounts-viewer', context.task.name, []);
  }
});

afterAll(async () => {
  await admin?.close();
  await viewer?.close();
  await server?.stop();
});

async function signIn(page: Page, account: string, password: string, lang = 'en') {
  const login = await api(server.url, authEndpoints.login, { body: { account, password } });
  await storeSession(page, server.url, login, lang);
}

/** Fills the account form that is open and saves it. */
async function fillAccountForm(page: Page, fields: Record<string, string>, authority?: string, shot?: string) {
  const form = page.getByTestId('account-form');
  await form.waitFor();
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: true }).fill(value);
  if (authority) {
    await form.locator('.ant-form-item', { hasText: 'Authority' }).locator('.ant-select-selector').click();
    await page.locator('.ant-select-item-option', { hasText: authority }).click();
  }
  if (shot) await screenshot(page, shot);
  await page.getByRole('button', { name: 'Save' }).click();
  await form.waitFor({ state: 'detached' });
}

describe('accounts and sub-accounts in a real browser', () => {
  it('the administrator creates an account from the ordinary tab', async () => {
    const { page } = admin;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto(`${server.url}/system`);
    await page.waitForURL(/\/system\/account$/);
    await page.getByRole('tab', { name: 'Administrator accounts' }).waitFor();
    await page.getByRole('tab', { name: 'Ordinary accounts' }).click();
    await page.getByRole('button', { name: 'Add account' }).click();
    await fillAccountForm(page, {
      Account: 'acme-lighting',
      'First password': PASSWORD,
      'Person in charge': 'Aiko Tanaka',
      Company: 'Acme',
    });
    await page.getByRole('cell', { name: 'acme-lighting' }).waitFor();
    await screenshot(page, 'accounts-ordinary-en');
    // The account's details, also reachable by its address (?uid=).
    await page.getByTestId('account-link').filter({ hasText: 'acme-lighting' }).click();
    const detail = page.getByTestId('account-detail');
    await detail.getByText('Acme', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('uid')).toMatch(/^\d+$/);
    await screenshot(page, 'accounts-detail-en');
    await page.reload();
    await detail.getByText('Aiko Tanaka').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });
  });

  it('the account creates a view-only sub-account limited to one project, which sees only it and no edit buttons', async () => {
    const { page } = admin;
    const owner = await api(server.url, authEndpoints.login, { body: { account: 'acme-lighting', password: PASSWORD } });
    await api(server.url, projectEndpoints.addProject, { body: { name: 'Warehouse' } }, { token: owner.access_token });
    await signIn(page, 'acme-lighting', PASSWORD, 'ja');
    await page.goto(`${server.url}/system/account`);
    await page.getByRole('tab', { name: 'サブアカウント' }).waitFor();
    expect(await page.getByRole('tab', { name: '管理者アカウント' }).count()).toBe(0);
    await screenshot(page, 'accounts-sub-ja');
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
    await page.reload();
    await page.getByRole('button', { name: 'Add sub-account' }).click();
    const form = page.getByTestId('account-form');
    await form.getByLabel('Only these projects').check();
    await form.getByRole('combobox', { name: 'Projects' }).click();
    await page.locator('.ant-select-item-option', { hasText: 'Warehouse' }).click();
    await fillAccountForm(
      page,
      { Account: 'acme-viewer', 'First password': PASSWORD, 'Person in charge': 'Ken' },
      'View only',
      'accounts-form-en',
    );
    const row = page.getByRole('row', { name: /acme-viewer/ });
    await row.getByRole('cell', { name: 'Warehouse' }).waitFor();
    expect(await row.getByRole('cell', { name: 'View only' }).isVisible()).toBe(true);

    await signIn(viewer.page, 'acme-viewer', PASSWORD);
    await viewer.page.goto(`${server.url}/project/list`);
    await viewer.page.getByText('Warehouse').first().waitFor();
    await screenshot(viewer.page, 'accounts-limited-projects-en');
    expect(await viewer.page.getByText('Default project').count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: 'New project' }).count()).toBe(0);
    expect(await viewer.page.getByRole('menuitem', { name: 'Accounts' }).count()).toBe(0);
  });

  it('the owner edits its own info in the user centre, and the header follows', async () => {
    const { page } = admin;
    await page.goto(`${server.url}/system/center`);
    await page.getByRole('button', { name: 'Edit info' }).click();
    const form = page.getByTestId('profile-form');
    await form.getByLabel('Name', { exact: true }).fill('Aiko Sato');
    await form.getByLabel('Phone', { exact: true }).fill('+81312345678');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByTestId('user-menu').getByText('Aiko Sato').waitFor();

    // A round blue avatar and an orange logo: the header shows both at once.
    const picture = (rgb: Rgb, size: number) => encodePng(size, size, () => rgb);
    const row = (name: string) => page.locator('.ant-list-item', { hasText: name });
    await row('Avatar')
      .locator('input[type=file]')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture([22, 119, 255], 128) });
    await page.getByTestId('user-menu').locator('img').waitFor();
    await row('Company logo')
      .locator('input[type=file]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: picture([250, 140, 22], 120) });
    const siderLogo = page.locator('.ant-pro-sider-logo img');
    await expect.poll(() => siderLogo.getAttribute('src')).toMatch(/^\/api1\//);
    const logo = await siderLogo.getAttribute('src');
    expect(logo).toMatch(/^\/api1\/user\/v1\/image\/[0-9a-f]{32}\.png$/);
    await screenshot(page, 'accounts-center-en');
    await row('Company logo')
      .getByRole('button', { name: /Remove/ })
      .click();
    await expect.poll(() => siderLogo.getAttribute('src')).not.toBe(logo);
    // The same page in Japanese.
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    await page.reload();
    await page.getByText('画像', { exact: true }).waitFor();
    await screenshot(page, 'accounts-center-ja');
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
    await page.goto(`${server.url}/system/account`);
    await page.getByRole('tab', { name: 'Sub-accounts' }).waitFor();
  });

  it('disabling the sub-account signs its open browser out with the reason', async () => {
    const { page } = admin;
    const row = page.getByRole('row', { name: /acme-viewer/ });
    await row.getByRole('switch', { name: 'Enabled' }).click();
    await expect.poll(() => row.getByRole('switch', { name: 'Enabled' }).getAttribute('aria-checked')).toBe('false');
    const dialog = viewer.page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title', { hasText: 'Signed out' }).waitFor();
    expect(await dialog.getByText('Account disabled', { exact: false }).isVisible()).toBe(true);
    await screenshot(viewer.page, 'accounts-disabled-dialog-en');
    await viewer.page.waitForURL(/\/user\/login$/);
  });
});
