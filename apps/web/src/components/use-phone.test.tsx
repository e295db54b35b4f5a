// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { ConfigProvider, Input } from 'antd';
import { describe, expect, it } from 'vitest';
import { layoutTheme } from './use-phone.ts';

describe('the layout theme across the phone breakpoint', () => {
  it('keeps the page mounted: a field keeps its element, and so what was typed, when the window turns phone-sized and back', () => {
    const page = (phone: boolean) => (
      <ConfigProvider theme={layoutTheme(phone)}>
        <Input aria-label="Scene name" defaultValue="Evening" />
      </ConfigProvider>
    );
    const { rerender } = render(page(false));
    const field = screen.getByLabelText('Scene name');
    rerender(page(true));
    expect(screen.getByLabelText('Scene name')).toBe(field);
    rerender(page(false));
    expect(screen.getByLabelText('Scene name')).toBe(field);
  });
});
