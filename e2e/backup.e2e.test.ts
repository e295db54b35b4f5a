import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { USER_AUTH, accountEndpoints, authEndpoints, backupEndpoints, userEndpoints } from '@lumigrid/contract';
import { ADMIN_PASSWORD, CAPTCHA, startServer, type RunningServer } from './support/server.ts';
import { adminToken, api, poll } from './support/api.ts';
import { openBrowser, recordApiCalls, reportFailure, screenshot, storeSession, type TestBrowser } from './support/browser.ts';

// Backup and restore on an on-premise server (MODE=server): the administrator backs up into a folder with the
// progress bar, sees the archive listed with what it holds, restores it, and is signed out with everyone else.

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let journal: string[] = [];

beforeAll(async () => {
  server = await startServer({ MODE: 'server', ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}) });
  await mkdir(join(server.dataDir, 'backups', 'nightly'), { recursive: true });
  await mkdir(join(server.dataDir, 'backups', 'before-upgrade'), { recursive: true });
  const token = await adminToken(server.url);
  await api(
    server.url,
    userEndpoints.add,
    { body: { userAuth: USER_AUTH.account, account: 'harbour-lights', password: 'Harbour-Pass-2026', name: 'Harbour Lights' } },
    { token },
  );
  browser = await openBrowser();
  page = browser.page;
  journal = recordApiCalls(page);
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await reportFailure(page, 'backup', context.task.name, journal, server.output().slice(-3000));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signIn(lang: string) {
  const login = await api(server.url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
  await storeSession(page, server.url, login, lang);
}

async function openFolder(name: string) {
  await page.getByTestId('backup-folders').getByText(name, { exact: true }).click();
  await page.locator('.ant-pro-table-list-toolbar-title', { hasText: name }).waitFor();
}

describe('backup and restore in server mode', () => {
  it('backs up into a chosen folder with a progress bar and lists the archive with what it holds', async () => {
    await signIn('en');
    await page.goto(`${server.url}/home`);
    await page.getByRole('menuitem', { name: 'System' }).click();
    await page.getByRole('link', { name: 'Backup and restore' }).click();
    await page.waitForURL(/\/system\/data$/);
    await page
      .getByTestId('backup-root')
      .filter({ hasText: join(server.dataDir, 'backups') })
      .waitFor();
    await openFolder('nightly');
    await page.getByText('No backups in this folder yet').waitFor();
    await screenshot(page, 'backup-empty-en');

    await page.getByTestId('backup-now').click();
    const progress = page.getByTestId('backup-progress');
    await progress.waitFor();
    await page.locator('[data-testid=backup-progress][data-state=succeeded]').getByText('Backup finished').waitFor();
    await screenshot(page, 'backup-done-en');
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

    const row = page.locator('.ant-table-row', { hasText: /lumigrid-backup-\d{8}-\d{6}\.tar\.gz/ });
    await row.waitFor();
    await row.getByText(/\d+ tables, [\d,]+ rows/).waitFor();
    expect(await row.locator('[data-testid^="restore-"]').isEnabled()).toBe(true);
    await screenshot(page, 'backup-list-en');
    const listed = await api(
      server.url,
      backupEndpoints.backupMsg,
      { query: { path: 'nightly' } },
      { token: await adminToken(server.url) },
    );
    expect(listed.list).toHaveLength(1);
    expect(listed.list[0]!.rows).toBeGreaterThan(0);
  });

  it('shows the page in Japanese, with the restore confirmation', async () => {
    await signIn('ja');
    await page.goto(`${server.url}/system/data`);
    await page.locator('.ant-page-header-heading-title', { hasText: 'データのバックアップと復元' }).waitFor();
    await openFolder('nightly');
    await page.locator('.ant-table-row', { hasText: /\d+ テーブル/ }).waitFor();
    await screenshot(page, 'backup-list-ja');
    await page.locator('[data-testid^="restore-lumigrid-backup-"]').click();
    await page.locator('.ant-modal-confirm-title', { hasText: 'このバックアップを復元しますか？' }).waitFor();
    await screenshot(page, 'backup-restore-confirm-ja');
    await page.getByRole('button', { name: 'キャンセル' }).click();
    await page.locator('.ant-modal-confirm-title').waitFor({ state: 'detached' });
  });

  it('restores the archive with a progress bar: later changes are gone and everyone is signed out', async () => {
    // An account made after the backup: the restore takes the data back to before it.
    const token = await adminToken(server.url);
    await api(
      server.url,
      userEndpoints.add,
      { body: { userAuth: USER_AUTH.account, account: 'after-backup', password: 'After-Pass-2026' } },
      { token },
    );
    await signIn('en');
    await page.goto(`${server.url}/system/data`);
    await openFolder('nightly');
    await page.locator('[data-testid^="restore-lumigrid-backup-"]').click();
    await page.getByTestId('restore-confirm').click();
    await page.getByTestId('backup-progress').locator('.ant-progress').waitFor();
    await screenshot(page, 'backup-restore-progress-en');

    // The forced logout: the notice's dialog, then the sign-in page.
    await page.locator('.ant-modal-confirm-title', { hasText: 'Signed out' }).waitFor();
    await page
      .getByText('The data was restored from the backup', { exact: false })
      .or(page.getByText('Please log in again'))
      .first()
      .waitFor();
    await screenshot(page, 'backup-restore-signed-out-en');
    await page.waitForURL(/\/user\//);
    // Public: the check needs no session (a solved captcha instead), so it works while everyone is signed out.
    const exists = async (account: string) => {
      const { captchaId } = await api(server.url, authEndpoints.captcha, {});
      return api(server.url, accountEndpoints.accountExists, { params: { account }, query: { captchaId, captcha: CAPTCHA } });
    };
    await poll(async () => !(await exists('after-backup')).exists, 'the account made after the backup to be gone');
    expect((await exists('harbour-lights')).exists).toBe(true);
  });
});
