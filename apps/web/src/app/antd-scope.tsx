import '@ant-design/v5-patch-for-react-19';
import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { useAntdLocale } from '../i18n/antd-locales.ts';
import { useBoot } from './boot.tsx';
import { THEME } from './theme.ts';

export { loadAntdLocale } from '../i18n/antd-locales.ts';

/**
 * Live notices (a light's new fault, a finished update) come in the bottom corner: at the top they covered the
 * header's account menu and alarm banner, and a site with a flapping light kept them covered.
 */
const NOTIFICATIONS = { placement: 'bottomRight' } as const;

/**
 * antd's theme, locale and message context for the screens drawn with antd. It loads with the first of them:
 * the sign-in page draws none (components/light-controls.tsx).
 */
export default function AntdScope({ children }: { children: ReactNode }) {
  const { lang } = useBoot();
  return (
    <ConfigProvider locale={useAntdLocale(lang)} theme={THEME}>
      <AntApp notification={NOTIFICATIONS}>{children}</AntApp>
    </ConfigProvider>
  );
}
