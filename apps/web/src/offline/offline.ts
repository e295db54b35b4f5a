import { LANG_TAGS } from '@lumigrid/contract/lang';
import { BRAND_CACHE, brandOf, offlineLang, OFFLINE_TEXTS, RETRY_EVERY_MS, type OfflineTexts } from './offline-page.ts';
import './offline.css';

/**
 * The page the service worker answers when the site's server cannot be reached. It shows no data at all (none
 * would be live), says so in the user's language, and opens the app again once the server answers.
 */
function element(key: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`[data-offline="${key}"]`);
  if (!found) throw new Error(`offline.html has no ${key}`);
  return found;
}

async function keptBrand() {
  try {
    const brand = await caches.open(BRAND_CACHE);
    const url = (await brand.keys()).find((request) => new URL(request.url).pathname.endsWith('/manifest.webmanifest'));
    const kept = url && (await brand.match(url));
    return kept ? brandOf(await kept.json()) : undefined;
  } catch {
    return undefined;
  }
}

function storedLang(): string | null {
  try {
    return localStorage.getItem('lang');
  } catch {
    return null;
  }
}

function show(texts: OfflineTexts) {
  document.title = texts.title;
  for (const key of ['title', 'body', 'auto', 'retry'] as const) element(key).textContent = texts[key];
}

async function start() {
  const brand = await keptBrand();
  const lang = offlineLang(storedLang(), brand?.lang, navigator.languages);
  const texts = OFFLINE_TEXTS[lang];
  document.documentElement.lang = LANG_TAGS[lang];
  show(texts);
  if (brand) {
    element('brand').textContent = brand.name;
    const icon = document.querySelector<HTMLImageElement>('.offline-brand-icon');
    if (icon && brand.icon) icon.src = brand.icon;
  }

  const retry = element('retry');
  const status = element('status');
  let trying = false;
  async function tryAgain(byHand: boolean) {
    if (trying) return;
    trying = true;
    if (byHand) status.textContent = texts.checking;
    try {
      const health = await fetch('/healthz', { cache: 'no-store' });
      // The URL is still the page asked for: loading it again opens the app there.
      if (health.ok) return window.location.reload();
    } catch {
      // still unreachable
    }
    trying = false;
    if (byHand) status.textContent = texts.still;
  }
  retry.addEventListener('click', () => void tryAgain(true));
  window.setInterval(() => void tryAgain(false), RETRY_EVERY_MS);
  window.addEventListener('online', () => void tryAgain(false));
}

void start();
