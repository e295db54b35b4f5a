// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { focusScrollingTables } from './table-scroll-focus.ts';

/** A table scroller as antd renders it, with the sizes a browser would lay out (jsdom lays out nothing). */
function scroller(className: string, overflowX: string, size: { content: number; box: number }): HTMLElement {
  const box = document.createElement('div');
  box.className = className;
  box.style.overflowX = overflowX;
  Object.defineProperty(box, 'scrollWidth', { configurable: true, get: () => size.content });
  Object.defineProperty(box, 'clientWidth', { configurable: true, get: () => size.box });
  document.body.appendChild(box);
  return box;
}

describe('tab stops on tables that scroll', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('gives a table wider than its box a tab stop, and takes it away once it fits', () => {
    const size = { content: 1300, box: 1000 };
    const box = scroller('ant-table-content', 'auto', size);
    focusScrollingTables(document);
    expect(box.tabIndex).toBe(0);

    size.content = 900;
    focusScrollingTables(document);
    expect(box.hasAttribute('tabindex')).toBe(false);
  });

  it('leaves alone a table that fits, one that overflows without scrolling, and a tab stop it did not set', () => {
    const fits = scroller('ant-table-content', 'auto', { content: 800, box: 1000 });
    // On a phone the rows are cards and the table's box lets them overflow (phone.css): nothing scrolls there.
    const visible = scroller('ant-table-content', 'visible', { content: 1300, box: 1000 });
    const own = scroller('ant-table-body', 'auto', { content: 800, box: 1000 });
    own.tabIndex = 0;
    focusScrollingTables(document);
    expect(fits.hasAttribute('tabindex')).toBe(false);
    expect(visible.hasAttribute('tabindex')).toBe(false);
    expect(own.tabIndex).toBe(0);
  });
});
