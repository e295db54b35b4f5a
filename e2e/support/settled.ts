import type { Page, Request } from 'playwright-core';
import { REALTIME_ENDPOINT } from '@lumigrid/contract';
import { poll } from './api.ts';

/** How long no request may be in flight before a page counts as having loaded what it shows. */
const QUIET_MS = 300;

/**
 * The real-time channel, whatever SockJS carries it on: a socket, or (when the socket does not open in time on a
 * busy machine) a streaming or polling request that never ends while the page is open.
 */
const isRealtime = (request: Request) =>
  request.resourceType() === 'websocket' ||
  request.resourceType() === 'eventsource' ||
  new URL(request.url()).pathname.startsWith(REALTIME_ENDPOINT);

/**
 * The page's requests in flight (the real-time channel aside, which stays open), and when one last began or
 * ended. Playwright's own "networkidle" holds for the whole page load only, waits 500 ms and counts the real-time
 * channel's fallback requests, which never end; a journey that moves inside the app keeps its own count.
 */
export function trackRequests(p: Page) {
  const inFlight = new Set<Request>();
  let changedAt = Date.now();
  const ended = (request: Request) => {
    inFlight.delete(request);
    changedAt = Date.now();
  };
  p.on('request', (request) => {
    if (isRealtime(request)) return;
    inFlight.add(request);
    changedAt = Date.now();
  });
  p.on('requestfinished', ended);
  p.on('requestfailed', ended);
  return {
    /** Marks a move inside the app, whose requests start a moment later. */
    navigated: () => (changedAt = Date.now()),
    quiet: () => inFlight.size === 0 && Date.now() - changedAt >= QUIET_MS,
  };
}
export type RequestTracker = ReturnType<typeof trackRequests>;

/** Waits until the page has drawn what it loads: no request in flight for a moment, no spinner, skeleton or busy button. */
export async function settled(p: Page, requests: RequestTracker) {
  await poll(async () => requests.quiet(), 'no request in flight', { everyMs: 50 });
  await p
    .locator('.ant-spin-spinning, .lg-spin, .ant-skeleton-active, .ant-btn-loading, .lg-button--loading')
    .first()
    .waitFor({ state: 'detached' });
}
