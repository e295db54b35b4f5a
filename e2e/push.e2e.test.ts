import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { authEndpoints, pushEndpoints, userEndpoints } from '@lumigrid/contract';
import { encodePng } from '../apps/server/src/test/png.ts';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';
import { api } from './support/api.ts';
import { openBrowser, recordApiCalls, reportFailure, screenshot, storeSession, type TestBrowser } from './support/browser.ts';

// Push news in a real browser: an account owner adds an app and a category, writes a news item with a 2:1
// cover and rich text and sends it to review; the platform's reviewer passes it on the pushed review screen;
// the pages read in Japanese.

let server: RunningServer;
let author: TestBrowser;
let reviewer: TestBrowser;
let journal: string[] = [];

const OWNER = 'acme-push';
const PASSWORD = 'Lights-On-2026';
const TITLE = 'Spring lighting offer';

const png = (width: number, height: number) =>
  Buffer.from(encodePng(width, height, (x, y) => [30 + ((x * 3) % 180), 110, 200 - ((y * 2) % 150)]));

beforeAll(async () => {
  // E2E_WEB_DIST: a private build of the web client, as the gateway journeys take it.
  server = await startServer(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {});
  const admin = await api(server.url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
  await api(
    server.url,
    userEndpoints.add,
    { body: { userAuth: 2, account: OWNER, password: PASSWORD, name: 'Aiko Tanaka', company: 'Acme Lighting' } },
    { token: admin.access_token },
  );
  author = await openBrowser();
  reviewer = await openBrowser();
  journal = recordApiCalls(author.page);
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await reportFailure(author.page, 'push-author', context.task.name, journal, server.output().slice(-3000));
    await reportFailure(reviewer.page, 'push-reviewer', context.task.name, []);
  }
});

afterAll(async () => {
  await author?.close();
  await reviewer?.close();
  await server?.stop();
});

/** A fresh session each time: entering the sign-in page ends the session the page had. */
async function signIn(page: Page, account: string, password: string, lang = 'en') {
  await storeSession(page, server.url, await api(server.url, authEndpoints.login, { body: { account, password } }), lang);
}

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).locator('.ant-select-selector').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

describe('push news in a real browser', () => {
  it('an owner adds an app and a category, writes news with a cover and rich text, and sends it to review', async () => {
    const { page } = author;
    await signIn(page, OWNER, PASSWORD);
    await page.goto(`${server.url}/push/child/index`);
    await page.getByRole('menuitem', { name: 'Push' }).waitFor();

    await page.getByTestId('push-add-app').click();
    await page.waitForURL(/\/push\/addApp$/);
    await page.getByTestId('push-app-name').fill('Acme Home');
    await page.getByTestId('push-app-package').fill('com.acme.home');
    await page.locator('input[type=file]').setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: png(128, 128) });
    await page.getByTestId('push-app-icon-preview').waitFor();
    await screenshot(page, 'push-add-app-en');
    await page.getByTestId('push-app-save').click();
    await page.waitForURL(/\/push\/child\/index$/);
    await page.getByRole('cell', { name: 'com.acme.home' }).waitFor();

    await page.getByTestId('push-add-category').click();
    await page.getByTestId('push-category-name').fill('Products');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('push-category-Products').waitFor();
    await screenshot(page, 'push-apps-en');

    await page.getByRole('menuitem', { name: 'News' }).click();
    await page.waitForURL(/\/push\/index$/);
    await page.getByTestId('push-add-news').click();
    await page.waitForURL(/\/push\/addNews$/);
    await page.getByTestId('push-news-title').fill(TITLE);
    await pick(page, 'push-news-category', 'Products');
    await page
      .getByTestId('push-news-cover-upload')
      .locator('xpath=ancestor::span[contains(@class,"ant-upload-wrapper")]//input[@type="file"]')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png(800, 400) });
    await page.getByTestId('push-news-cover-preview').waitFor();

    const editor = page.locator('.lg-push-editor__body .ProseMirror');
    await editor.click();
    await page.keyboard.type('New ');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('dimmable');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type(' panels are here.');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bulleted list' }).click();
    await page.keyboard.type('Energy saving up to 40%');
    await expect.poll(() => editor.locator('strong').textContent()).toBe('dimmable');
    await screenshot(page, 'push-add-news-en');

    await page.getByTestId('push-news-save-submit').click();
    await page.waitForURL(/\/push\/details\?id=\d+$/);
    await page.getByTestId('push-state-pending').waitFor();
    await expect.poll(() => page.getByTestId('push-details-content').locator('strong').textContent()).toBe('dimmable');
    await page.getByTestId('push-details-cover').waitFor();
    await screenshot(page, 'push-details-pending-en');

    await page.goto(`${server.url}/push/index`);
    await page.getByTestId(`push-row-${TITLE}`).getByTestId('push-state-pending').waitFor();
    await screenshot(page, 'push-news-en');
  });

  it('the reviewer passes it on the pushed review screen, and the app can read it', async () => {
    const { page } = reviewer;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto(`${server.url}/push/review`);
    await page.getByRole('menuitem', { name: 'Pushed review' }).waitFor();
    await page.getByTestId(`push-review-${TITLE}`).waitFor();
    await screenshot(page, 'push-review-en');
    await page.getByTestId(`push-review-${TITLE}`).click();
    await page.waitForURL(/\/push\/details\?id=\d+&review=1$/);
    await page.getByTestId('push-pass').waitFor();
    await page.getByTestId('push-details-content').getByText('dimmable').waitFor();
    await screenshot(page, 'push-review-details-en');
    await page.getByTestId('push-pass').click();
    await page.getByTestId('push-state-passed').waitFor();

    // The author's list shows it passed; the mobile app's public call serves it.
    await author.page.goto(`${server.url}/push/index`);
    await author.page.getByTestId(`push-row-${TITLE}`).getByTestId('push-state-passed').waitFor();
    await screenshot(author.page, 'push-news-passed-en');
    const list = await api(server.url, pushEndpoints.publicList, { query: { packageName: 'com.acme.home', lang: 'en' } });
    expect(list.list.map((n) => n.title)).toEqual([TITLE]);
  });

  it('reads in Japanese', async () => {
    const { page } = author;
    await signIn(page, OWNER, PASSWORD, 'ja');
    await page.goto(`${server.url}/push/index`);
    await page.locator('.ant-page-header-heading-title', { hasText: 'ニュース' }).waitFor();
    await page.getByTestId(`push-row-${TITLE}`).getByText('合格').waitFor();
    await page.getByRole('button', { name: 'ニュースを作成' }).waitFor();
    await screenshot(page, 'push-news-ja');
    await page.goto(`${server.url}/push/child/index`);
    await page.getByText('アプリとカテゴリ').first().waitFor();
    await page.getByText('パッケージ名').waitFor();
    await screenshot(page, 'push-apps-ja');
    await page.getByRole('button', { name: '編集' }).first().click();
    await page.waitForURL(/\/push\/editApp\?id=\d+$/);
    await page.getByTestId('push-app-icon-preview').waitFor();
    await screenshot(page, 'push-edit-app-ja');
    await page.goto(`${server.url}/push/index`);
    await page.getByTestId(`push-news-${TITLE}`).click();
    await page.waitForURL(/\/push\/details\?id=\d+$/);
    await page.locator('.ant-descriptions').getByText('審査状態').waitFor();
    await screenshot(page, 'push-details-ja');
    await page.goto(`${server.url}/push/addNews`);
    await page.getByRole('button', { name: '保存して審査に提出' }).waitFor();
    await screenshot(page, 'push-add-news-ja');

    await signIn(reviewer.page, 'admin', ADMIN_PASSWORD, 'ja');
    await reviewer.page.goto(`${server.url}/push/review`);
    await reviewer.page.getByRole('tab', { name: '審査待ち' }).waitFor();
    await reviewer.page.getByRole('tab', { name: '合格', exact: true }).click();
    await reviewer.page.getByTestId(`push-review-${TITLE}`).waitFor();
    await screenshot(reviewer.page, 'push-review-ja');
  });
});
