/**
 * The service worker (built to /sw.js by build/service-worker.ts, which fills in SHELL_FILES). It keeps the
 * built shell and the offline page, and answers a page load the server cannot take with the offline page.
 * It touches nothing else: API calls, the real-time channel and the host files always go to the network,
 * so no stale value is ever shown as live.
 */

// The worker's own types (lib "webworker") clash with the DOM's the web project is checked against.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface WorkerScope {
  location: Location;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
}

declare const __LUMIGRID_SHELL__: { version: string; files: string[] };
const worker = self as unknown as WorkerScope;
const SHELL = __LUMIGRID_SHELL__;

const SHELL_PREFIX = 'lumigrid-shell-';
const SHELL_CACHE = `${SHELL_PREFIX}${SHELL.version}`;
/** The host's manifest and app icon, kept so the offline page carries the brand; refreshed on every load. */
const BRAND_CACHE = 'lumigrid-brand'; // offline-page.ts reads it by this name
const OFFLINE_PAGE = '/offline.html';

const bareHost = (hostname: string) => hostname.toLowerCase().replace(/^www\./, '');
const brandFiles = () => {
  const base = `/test/${encodeURIComponent(bareHost(worker.location.hostname))}`;
  return [`${base}/manifest.webmanifest`, `${base}/app-icon.svg`];
};

/** A proxy in front of a stopped server answers these; the page behind them is as unreachable as none. */
const SERVER_GONE = new Set([502, 503, 504]);

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const shell = await caches.open(SHELL_CACHE);
      await shell.addAll(SHELL.files);
      const brand = await caches.open(BRAND_CACHE);
      // The brand is a nicety: the offline page falls back to the product's name without it.
      await Promise.all(brandFiles().map((url) => brand.add(new Request(url, { cache: 'no-cache' })).catch(() => undefined)));
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE) await caches.delete(name);
      await worker.clients.claim();
    })(),
  );
});

async function offlinePage(): Promise<Response> {
  return (await caches.match(OFFLINE_PAGE, { cacheName: SHELL_CACHE })) ?? new Response('offline', { status: 503 });
}

async function pageOrOffline(request: Request): Promise<Response> {
  try {
    const response = await fetch(request);
    return SERVER_GONE.has(response.status) ? offlinePage() : response;
  } catch {
    return offlinePage();
  }
}

/** Built files are named after their content: a kept copy is always right. */
async function builtFile(request: Request): Promise<Response> {
  const shell = await caches.open(SHELL_CACHE);
  const kept = await shell.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await shell.put(request, response.clone());
  return response;
}

async function brandFile(request: Request): Promise<Response> {
  const brand = await caches.open(BRAND_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await brand.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await brand.match(request);
    if (kept) return kept;
    throw error;
  }
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== worker.location.origin) return;
  if (request.mode === 'navigate') return event.respondWith(pageOrOffline(request));
  if (url.pathname.startsWith('/assets/') || SHELL.files.includes(url.pathname)) return event.respondWith(builtFile(request));
  if (brandFiles().includes(url.pathname)) return event.respondWith(brandFile(request));
  // Everything else (the API, the host files, the real-time channel) is the network's alone.
});
