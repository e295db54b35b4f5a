import '@ant-design/v5-patch-for-react-19';
import { ConfigProvider, message, Modal } from 'antd';
import { currentLang } from '../i18n/index.ts';
import { ANTD_LOCALES } from '../i18n/antd-locales.ts';
import { THEME } from './theme.ts';
import type { ToastKind } from './toast.ts';

// antd's static message and dialogs render outside the React tree: give them the product's theme and antd's
// texts in the page's language.
ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider theme={THEME} locale={ANTD_LOCALES[currentLang()]}>
      {children}
    </ConfigProvider>
  ),
});

export function showToast(kind: ToastKind, content: string, key?: string): void {
  void message[kind]({ content, key });
}

export function showNotice(title: string, content: string): void {
  Modal.info({ title, content });
}
