// The language rules alone: the whole contract would make this page hundreds of kilobytes.
import { DEFAULT_LANG, isLang, langFromTag, type Lang } from '@lumigrid/contract/lang';
import { offline as cn } from '../i18n/cn.json';
import { offline as en } from '../i18n/en.json';
import { offline as ja } from '../i18n/ja.json';
import { offline as tc } from '../i18n/tc.json';

export type OfflineTexts = typeof en;

/** Only the offline page's texts of each catalogue, so the page stays a few kilobytes. */
export const OFFLINE_TEXTS: Record<Lang, OfflineTexts> = { cn, tc, en, ja };

/** How often the offline page asks whether the server answers again. */
export const RETRY_EVERY_MS = 10_000;

/**
 * The offline page's language, as the app would choose it: the choice stored on this device, then the host's
 * language (from the manifest kept offline), then the browser's languages, then English.
 */
export function offlineLang(stored: string | null, hostLangTag: string | undefined, browserTags: readonly string[]): Lang {
  if (isLang(stored)) return stored;
  for (const tag of [hostLangTag, ...browserTags]) {
    const lang = tag ? langFromTag(tag) : undefined;
    if (lang) return lang;
  }
  return DEFAULT_LANG;
}

/** The cache the service worker keeps the host's manifest and app icon in (service-worker.ts). */
export const BRAND_CACHE = 'lumigrid-brand';

/** The brand a kept manifest names, when it is a manifest at all. */
export function brandOf(manifest: unknown): { name: string; lang?: string; icon?: string } | undefined {
  if (!manifest || typeof manifest !== 'object') return undefined;
  const { name, lang, icons } = manifest as { name?: unknown; lang?: unknown; icons?: unknown };
  if (typeof name !== 'string' || !name.trim()) return undefined;
  const first: unknown = Array.isArray(icons) ? icons[0] : undefined;
  const icon =
    first && typeof first === 'object' && typeof (first as { src?: unknown }).src === 'string' ? (first as { src: string }).src : undefined;
  return { name: name.trim(), ...(typeof lang === 'string' ? { lang } : {}), ...(icon ? { icon } : {}) };
}
