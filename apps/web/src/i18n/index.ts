import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import 'dayjs/locale/ja';
import type { Locale } from 'antd/es/locale';
import zhCN from 'antd/es/locale/zh_CN';
import zhTW from 'antd/es/locale/zh_TW';
import enUS from 'antd/es/locale/en_US';
import jaJP from 'antd/es/locale/ja_JP';
import { DEFAULT_LANG, LANG_TAGS, LANGS, isLang, type Lang } from '@lumigrid/contract';
import cn from './cn.json';
import tc from './tc.json';
import en from './en.json';
import ja from './ja.json';
import { htmlLang } from './lang-tags.ts';

export { htmlLang, languageToUse } from './lang-tags.ts';

export const ANTD_LOCALES: Record<Lang, Locale> = { cn: zhCN, tc: zhTW, en: enUS, ja: jaJP };

void i18n.use(initReactI18next).init({
  resources: { cn: { translation: cn }, tc: { translation: tc }, en: { translation: en }, ja: { translation: ja } },
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

/** Switches every text: i18next, dayjs, <html lang>. antd and pro-components follow via the providers. */
export function applyLanguage(lang: Lang): void {
  dayjs.locale(LANG_TAGS[lang].toLowerCase());
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(lang);
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
}

export default i18n;
