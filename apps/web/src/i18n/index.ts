import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import { DEFAULT_LANG, LANG_TAGS, LANGS, isLang, type Lang } from '@lumigrid/contract/browser';
import en from './en.json';
import { htmlLang } from './lang-tags.ts';

export { htmlLang, languageToUse } from './lang-tags.ts';

// English is the default and the fallback, so it comes with the page; the others load when chosen, with
// dayjs's names of months and days in that language.
const OTHER_CATALOGUES: Record<Exclude<Lang, 'en'>, () => Promise<{ default: typeof en }>> = {
  cn: () => import('./cn.json'),
  tc: () => import('./tc.json'),
  ja: () => import('./ja.json'),
};
const DAYJS_LOCALES: Record<Exclude<Lang, 'en'>, () => Promise<unknown>> = {
  cn: () => import('dayjs/locale/zh-cn'),
  tc: () => import('dayjs/locale/zh-tw'),
  ja: () => import('dayjs/locale/ja'),
};

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: DEFAULT_LANG,
  fallbackLng: DEFAULT_LANG,
  // Our codes (cn, tc) are not BCP 47; keep i18next from splitting or rewriting them.
  load: 'currentOnly',
  supportedLngs: [...LANGS],
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function currentLang(): Lang {
  return isLang(i18n.language) ? i18n.language : DEFAULT_LANG;
}

/** Fetches a language's texts unless i18next holds them already. */
async function loadCatalogue(lang: Lang): Promise<void> {
  if (lang === 'en' || i18n.hasResourceBundle(lang, 'translation')) return;
  const [{ default: catalogue }] = await Promise.all([OTHER_CATALOGUES[lang](), DAYJS_LOCALES[lang]()]);
  i18n.addResourceBundle(lang, 'translation', catalogue);
}

/**
 * Switches every text: i18next, dayjs, <html lang>; antd and pro-components follow via the providers. A
 * language whose texts are not here yet switches once they have arrived (until then the page keeps its
 * language); if they cannot be fetched, the English texts stand in.
 */
export async function applyLanguage(lang: Lang): Promise<void> {
  await loadCatalogue(lang).catch((error: unknown) => console.warn(`texts of ${lang} not loaded`, error));
  dayjs.locale(LANG_TAGS[lang].toLowerCase());
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(lang);
  if (i18n.language !== lang) await i18n.changeLanguage(lang);
}

export default i18n;
