import type { ThemeConfig } from 'antd';

/** The product's antd theme: Ant Design blue, slightly rounder corners. */
export const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#1677ff',
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Noto Sans CJK SC', 'Noto Sans CJK JP', sans-serif",
  },
};
