import type { ThemeConfig } from 'antd';

/** Whether the person asked their system for less motion (also set by the browser journeys). */
export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/**
 * The product's antd theme: Ant Design blue, slightly rounder corners; no animations for those who asked for less
 * motion. Text colours meet WCAG AA (4.5:1) on white and on the grey page background: antd's own tertiary and
 * placeholder greys (45 % and 25 % black) and its blue (4.1:1 under white button text) do not.
 */
export const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#1668dc',
    // Under the pointer a control darkens to antd's blue-7 (6.2:1 under white text): the lighter blue antd
    // derives for hover (#3c8ae8) is 3.5:1, so a hovered button's or link's text would fail AA.
    colorPrimaryHover: '#0958d9',
    colorLinkHover: '#0958d9',
    // Links and "processing" states take this blue too (antd's colorLink follows colorInfo).
    colorInfo: '#1668dc',
    // antd's red-7: danger links and buttons, 5.6:1 on white.
    colorError: '#cf1322',
    // The texts of Typography's success and warning types: the 8th shade of antd's green and gold.
    colorSuccessText: '#237804',
    colorWarningText: '#874d00',
    // 60 % black is #666 on white (5.7:1), 5.3:1 on the #f5f5f5 page background.
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    // A little lighter than descriptions, so a hint still reads as a hint: #6e6e6e on white (5.1:1).
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.57)',
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Noto Sans CJK SC', 'Noto Sans CJK JP', sans-serif",
    motion: !prefersReducedMotion(),
  },
  components: {
    // A table or list with nothing to show says so in this grey (antd's disabled grey is 1.8:1).
    Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.6)' },
    List: { colorTextDisabled: 'rgba(0, 0, 0, 0.6)' },
    // A tag's text is the 7th shade of its colour on the 1st; these palettes' 7th shades are too light for
    // 4.5:1, so their tags take the next darker shade (status tags likewise, on their own light background).
    Tag: {
      colorSuccess: '#237804',
      colorWarning: '#874d00',
      volcano7: '#ad2102',
      orange7: '#ad4e00',
      gold7: '#874d00',
      yellow7: '#876800',
      lime7: '#3f6600',
      green7: '#237804',
      cyan7: '#006d75',
    },
  },
};
