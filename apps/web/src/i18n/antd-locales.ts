import type { Locale } from 'antd/es/locale';
import zhCN from 'antd/es/locale/zh_CN';
import zhTW from 'antd/es/locale/zh_TW';
import enUS from 'antd/es/locale/en_US';
import jaJP from 'antd/es/locale/ja_JP';
import type { Lang } from '@lumigrid/contract/browser';

/** antd's own texts (pagers, pickers, empty tables) in each language; loaded with antd's screens. */
export const ANTD_LOCALES: Record<Lang, Locale> = { cn: zhCN, tc: zhTW, en: enUS, ja: jaJP };
