/** The four interface languages of the product; en is the default (spec section 1). */
export const LANGS = ['cn', 'tc', 'en', 'ja'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en';

/** The BCP 47 tag of each product language (Accept-Language, <html lang>, date and number formats). */
export const LANG_TAGS: Record<Lang, string> = { cn: 'zh-CN', tc: 'zh-TW', en: 'en', ja: 'ja' };

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/** Maps one language tag (BCP 47 or our own code) to a product language, or undefined. */
export function langFromTag(tag: string): Lang | undefined {
  const t = tag.trim().toLowerCase();
  if (isLang(t)) return t;
  if (t.startsWith('zh')) {
    // Traditional script or the regions that write it; everything else Chinese is simplified.
    return /hant|-tw|-hk|-mo/.test(t) ? 'tc' : 'cn';
  }
  if (t.startsWith('ja')) return 'ja';
  if (t.startsWith('en')) return 'en';
  return undefined;
}

/** Picks the best product language from an Accept-Language header, honouring q-values. */
export function langFromAcceptLanguage(header: string | undefined): Lang | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const lang = langFromTag(tag);
    if (lang) return lang;
  }
  return undefined;
}

/** Text in every product language. */
export type Localised = Record<Lang, string>;
