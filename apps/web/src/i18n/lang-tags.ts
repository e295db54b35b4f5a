import { DEFAULT_LANG, type Lang } from '@lumigrid/contract';

const HTML_LANG: Record<Lang, string> = { cn: 'zh-CN', tc: 'zh-TW', en: 'en', ja: 'ja' };

/** The <html lang> value for a product language. */
export function htmlLang(lang: Lang): string {
  return HTML_LANG[lang];
}

/** The user's own choice on this device wins, then the host's branding language, then en (spec section 1). */
export function languageToUse(stored: Lang | undefined, branding: Lang | undefined): Lang {
  return stored ?? branding ?? DEFAULT_LANG;
}
