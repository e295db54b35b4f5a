import { useEffect, useState } from 'react';
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import type { Lang } from '@lumigrid/contract/browser';

// antd's own texts (pagers, pickers, empty tables): English comes with antd's screens, the others when first used.
const OTHER_LOCALES: Record<Exclude<Lang, 'en'>, () => Promise<{ default: Locale }>> = {
  cn: () => import('antd/es/locale/zh_CN'),
  tc: () => import('antd/es/locale/zh_TW'),
  ja: () => import('antd/es/locale/ja_JP'),
};
const loaded: Partial<Record<Lang, Locale>> = { en: enUS };

/** Fetches antd's texts in `lang` unless they are here already. */
export async function loadAntdLocale(lang: Lang): Promise<Locale> {
  const have = loaded[lang];
  if (have || lang === 'en') return have ?? enUS;
  const { default: locale } = await OTHER_LOCALES[lang]();
  loaded[lang] = locale;
  return locale;
}

/** antd's texts in `lang` if they are here, else English. */
export function loadedAntdLocale(lang: Lang): Locale {
  return loaded[lang] ?? enUS;
}

/** antd's texts in `lang`; after a switch, the previous language's until they arrive (English if they cannot be fetched). */
export function useAntdLocale(lang: Lang): Locale {
  const [shown, setShown] = useState<Locale>(() => loadedAntdLocale(lang));
  useEffect(() => {
    let current = true;
    loadAntdLocale(lang).then(
      (locale) => current && setShown(locale),
      (error: unknown) => console.warn(`antd's texts of ${lang} not loaded`, error),
    );
    return () => {
      current = false;
    };
  }, [lang]);
  return loaded[lang] ?? shown;
}
