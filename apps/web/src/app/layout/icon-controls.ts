import { useCallback, useEffect } from 'react';
import { useOnDomChange } from './dom-changes.ts';

/** What each icon control is called, in the page's language. */
export interface IconControlNames {
  reload: string;
  density: string;
  columns: string;
  sideMenu: string;
}

/**
 * Controls that ProTable's toolbar and ProLayout draw as bare icons with a click handler: no tab stop, no role,
 * an English icon name at most. Which names each one takes.
 */
const ICON_CONTROLS: ReadonlyArray<{ selector: string; name: keyof IconControlNames }> = [
  { selector: '.ant-pro-table-list-toolbar-setting-item .anticon-reload', name: 'reload' },
  { selector: '.ant-pro-table-list-toolbar-setting-item .anticon-column-height', name: 'density' },
  { selector: '.ant-pro-table-list-toolbar-setting-item .anticon-setting', name: 'columns' },
  { selector: '.ant-pro-sider-collapsed-button', name: 'sideMenu' },
  // The phone's header button that opens the menu drawer.
  { selector: '.ant-pro-global-header-collapsed-button', name: 'sideMenu' },
];
/** Marks the controls made here, which the keyboard handler presses. */
const MARK = 'iconControl';

/**
 * Makes every such icon a button the keyboard reaches (WCAG 2.1.1) and a screen reader names (4.1.2); the side
 * menu's arrow also says whether the menu is open.
 */
export function keyboardIconControls(root: ParentNode, names: IconControlNames, menuOpen: boolean): void {
  for (const { selector, name } of ICON_CONTROLS) {
    for (const icon of Array.from(root.querySelectorAll<HTMLElement>(selector))) {
      if (icon.tabIndex !== 0) icon.tabIndex = 0;
      if (icon.getAttribute('role') !== 'button') icon.setAttribute('role', 'button');
      if (icon.getAttribute('aria-label') !== names[name]) icon.setAttribute('aria-label', names[name]);
      if (name === 'sideMenu' && icon.getAttribute('aria-expanded') !== String(menuOpen))
        icon.setAttribute('aria-expanded', String(menuOpen));
      icon.dataset[MARK] = '';
    }
  }
}

/** Enter or Space on an icon control presses it, as on a button. */
export function pressIconControl(event: KeyboardEvent): void {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  const target = event.target;
  if (!(target instanceof HTMLElement) || target.dataset[MARK] === undefined) return;
  event.preventDefault();
  target.click();
}

/** Keeps the icon controls of every page reachable, named in the page's language, and pressable by key. */
export function useKeyboardIconControls(names: IconControlNames, menuOpen: boolean): void {
  const { reload, density, columns, sideMenu } = names;
  const update = useCallback(
    (root: Document) => keyboardIconControls(root, { reload, density, columns, sideMenu }, menuOpen),
    [reload, density, columns, sideMenu, menuOpen],
  );
  useOnDomChange(update);
  useEffect(() => {
    document.addEventListener('keydown', pressIconControl);
    return () => document.removeEventListener('keydown', pressIconControl);
  }, []);
}
