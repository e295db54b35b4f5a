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
const DESKTOP_THEME: ThemeConfig = { token: {} };

/**
 * The layout's theme for the window's size. Always an object: antd's ConfigProvider wraps its children in one
 * more provider when it has a theme, so a theme that came and went would mount every page anew when the window
 * crossed the phone breakpoint, and an editor would lose what was not saved.
 */
export const layoutTheme = (phone: boolean): ThemeConfig => (phone ? PHONE_THEME : DESKTOP_THEME);
