import type { ThemeConfig } from 'antd';

/** Whether the person asked their system for less motion (also set by the browser journeys). */
export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/** The product's antd theme: Ant Design blue, slightly rounder corners; no animations for those who asked for less motion. */
export const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#1677ff',
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Noto Sans CJK SC', 'Noto Sans CJK JP', sans-serif",
    motion: !prefersReducedMotion(),
  },
};
