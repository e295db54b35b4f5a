import { useOnDomChange } from './dom-changes.ts';

/** The boxes antd scrolls a table in: sideways (`scroll.x`) and, with a fixed header, down (`scroll.y`). */
const SCROLLERS = '.ant-table-content, .ant-table-body';
/** Marks the tab stops set here, so that only those are taken away again. */
const MARK = 'keyboardScroll';

const scrollsOn = (overflow: string) => overflow === 'auto' || overflow === 'scroll';

/** Whether the box scrolls: its content is larger than it and it shows the rest by scrolling, not overflowing. */
function scrolls(box: HTMLElement): boolean {
  const style = getComputedStyle(box);
  return (
    (scrollsOn(style.overflowX) && box.scrollWidth > box.clientWidth + 1) ||
    (scrollsOn(style.overflowY) && box.scrollHeight > box.clientHeight + 1)
  );
}

/**
 * Gives every table that scrolls a tab stop, and takes it away once the table fits again: a keyboard scrolls
 * only what has focus (WCAG 2.1.1), and a table with no link or button inside could not be scrolled by it.
 */
export function focusScrollingTables(root: ParentNode): void {
  for (const box of Array.from(root.querySelectorAll<HTMLElement>(SCROLLERS))) {
    if (scrolls(box)) {
      if (box.tabIndex < 0) {
        box.tabIndex = 0;
        box.dataset[MARK] = '';
      }
    } else if (box.dataset[MARK] !== undefined) {
      box.removeAttribute('tabindex');
      delete box.dataset[MARK];
    }
  }
}

/** Keeps the tab stops of scrolling tables in step as pages render and the window changes. */
export function useFocusableScrollingTables(): void {
  useOnDomChange(focusScrollingTables);
}
