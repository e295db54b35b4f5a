import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page, WebSocket } from 'playwright-core';
import { accountEndpoints, authEndpoints, systemEndpoints } from '@lumigrid/contract';
import type { LoginResult } from '@lumigrid/contract';
import { ADMIN_PASSWORD, CAPTCHA, startServer, type RunningServer } from './support/server.ts';
import { api, latestCodeFor } from './support/api.ts';
import { openBrowser, reportFailure, screenshot, storeSession, type TestBrowser } from './support/browser.ts';

// Issue 4's real-time channel in a real browser: the shell connects STOMP over SockJS with the token in
// CONNECT, and a session ended elsewhere signs the tab out with the localised reason.

let server: RunningServer;
let browser: TestBrowser;
let page: Page;

const mail = `rt.${Date.now()}@example.com`;
const password = 'Lights-On-2026';

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  page = browser.page;
  // An account of its own, so changing its password touches no other journey.
  const captcha = await api(server.url, authEndpoints.captcha, {});
  await api(server.url, authEndpoints.sendCode, {
    body: { target: mail, purpose: 'register', captchaId: captcha.captchaId, captcha: CAPTCHA },
  });
  const code = await latestCodeFor(server.url, mail);
  await api(server.url, authEndpoints.registerByMail, { body: { mail, code, password } });
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await reportFailure(page, 'realtime', context.task.name, [], server.output().slice(-2000));
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Stores a session as the sign-in page does, opens the shell and answers its real-time socket once CONNECTED. */
async function openShellSignedIn(account: string, secret: string): Promise<{ login: LoginResult; socket: WebSocket; frames: string[] }> {
  const login = await api(server.url, authEndpoints.login, { body: { account, password: secret } });
  await storeSession(page, server.url, login);
  const frames: string[] = [];
  const socketEvent = page.waitForEvent('websocket', (ws) => ws.url().includes('/ws/endpoint-homa/'));
  await page.goto(`${server.url}/home`);
  const socket = await socketEvent;
  socket.on('framereceived', (frame) => frames.push(String(frame.payload)));
  socket.on('framesent', (frame) => frames.push(`>${String(frame.payload)}`));
  await expect.poll(() => frames.some((f) => f.includes('CONNECTED')), { timeout: 10_000 }).toBe(true);
  await expect
    .poll(() => frames.some((f) => f.includes('SUBSCRIBE') && f.includes(`global_message_notice/${login.user.id}`)), { timeout: 10_000 })
    .toBe(true);
  return { login, socket, frames };
}

describe('real-time channel in the browser', () => {
  it('connects with the token in the CONNECT frame, never in the URL', async () => {
    const { login, socket, frames } = await openShellSignedIn('admin', ADMIN_PASSWORD);
    expect(socket.url()).not.toContain(login.access_token);
    expect(frames.some((f) => f.includes('CONNECT') && f.includes(`Authorization:Bearer ${login.access_token}`))).toBe(true);
  });

  it('its own sign-out is not taken for a forced one', async () => {
    await openShellSignedIn('admin', ADMIN_PASSWORD);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/user\/login$/);
    // The sign-in page is up and a full server round trip has passed: a forced-logout notice would be here by now.
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await api(server.url, systemEndpoints.info, {});
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
  });

  it('a password change in another session signs this tab out with a localised dialog', async () => {
    const { login } = await openShellSignedIn(mail, password);
    const other = await api(server.url, authEndpoints.login, { body: { account: mail, password } });
    await api(
      server.url,
      accountEndpoints.changePassword,
      { body: { oldPassword: password, newPassword: 'Lights-Off-2027' } },
      { token: other.access_token },
    );
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title', { hasText: 'Signed out' }).waitFor();
    expect(await dialog.getByText('Please log in again').isVisible()).toBe(true);
    await page.waitForURL(/\/user\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await screenshot(page, 'realtime-forced-logout-en');
    // The old token is dead on the server too.
    const me = await fetch(`${server.url}${accountEndpoints.profile.path}`, { headers: { authorization: `Bearer ${login.access_token}` } });
    expect(me.status).toBe(401);
  });
});
