import '@ant-design/v5-patch-for-react-19';
import { ConfigProvider, message } from 'antd';
import { THEME } from './theme.ts';
import type { ToastKind } from './toast.ts';

// antd's static message renders outside the React tree: give it the product's theme.
ConfigProvider.config({ holderRender: (children) => <ConfigProvider theme={THEME}>{children}</ConfigProvider> });

export function showToast(kind: ToastKind, content: string, key?: string): void {
  void message[kind]({ content, key });
}
