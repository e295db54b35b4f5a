import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { THEME } from './theme.ts';

/** WCAG 2.1's contrast ratio of two opaque #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

describe('the theme the app derives its colours from', () => {
  const token = theme.getDesignToken(THEME);

  it('keeps white text on a primary button at AA (4.5:1) at rest, under the pointer and pressed', () => {
    for (const name of ['colorPrimary', 'colorPrimaryHover', 'colorPrimaryActive'] as const)
      expect(contrast('#ffffff', token[name]), `${name} ${token[name]}`).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps links readable on white at rest and under the pointer', () => {
    for (const name of ['colorLink', 'colorLinkHover'] as const)
      expect(contrast('#ffffff', token[name]), `${name} ${token[name]}`).toBeGreaterThanOrEqual(4.5);
  });
});
