import '@ant-design/v5-patch-for-react-19';
import { ConfigProvider, message, Modal } from 'antd';
import { currentLang } from '../i18n/index.ts';
import { loadAntdLocale, loadedAntdLocale } from '../i18n/antd-locales.ts';
import { THEME } from './theme.ts';
import type { ToastKind } from './toast.ts';

// antd's static message and dialogs render outside the React tree: give them the product's theme and antd's
// texts in the page's language.
ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider theme={THEME} locale={loadedAntdLocale(currentLang())}>
      {children}
    </ConfigProvider>
  ),
});

export function showToast(kind: ToastKind, content: string, key?: string): void {
  void message[kind]({ content, key });
}

export function showNotice(title: string, content: string): void {
  // Its OK button is antd's text: in the page's language once antd's texts of it are here.
  void loadAntdLocale(currentLang())
    .catch(() => undefined)
    .then(() => Modal.info({ title, content }));
}
