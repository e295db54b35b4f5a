import { Grid, type ThemeConfig } from 'antd';

/**
 * Whether the window is phone-sized: narrower than antd's `md` breakpoint (768 px), where ProLayout turns the
 * side menu into a drawer. One breakpoint for every phone layout, so the menu, tables and floor plan switch together.
 */
export function usePhone(): boolean {
  // Before the first measurement antd answers {}: the desktop layout until the window is known.
  return Grid.useBreakpoint().md === false;
}

/** antd's control sizes on a phone: buttons, fields and selects a finger can hit (44 px, as Apple and WCAG 2.5.5 ask). */
export const PHONE_THEME: ThemeConfig = {
  token: { controlHeight: 44, controlHeightLG: 48, controlHeightSM: 44 },
};
