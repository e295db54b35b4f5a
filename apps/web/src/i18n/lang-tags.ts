import { DEFAULT_LANG, LANG_TAGS, type Lang } from '@lumigrid/contract/browser';

/** The <html lang> value for a product language. */
export function htmlLang(lang: Lang): string {
  return LANG_TAGS[lang];
}

/** The user's own choice on this device wins, then the host's branding language, then en (spec section 1). */
export function languageToUse(stored: Lang | undefined, branding: Lang | undefined): Lang {
  return stored ?? branding ?? DEFAULT_LANG;
}
