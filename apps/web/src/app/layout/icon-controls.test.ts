// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { keyboardIconControls, pressIconControl } from './icon-controls.ts';

const NAMES = { reload: 'Reload', density: 'Density', columns: 'Columns', sideMenu: 'Side menu' };

/** ProTable's toolbar and ProLayout's menu arrow as they render them: icons with a click handler and nothing else. */
function page() {
  document.body.innerHTML = `
    <div class="ant-pro-table-list-toolbar-setting-item"><span><span role="img" aria-label="reload" class="anticon anticon-reload"></span></span></div>
    <div class="ant-pro-table-list-toolbar-setting-item"><span role="img" aria-label="column-height" tabindex="-1" class="anticon anticon-column-height"></span></div>
    <div class="ant-pro-table-list-toolbar-setting-item"><span role="img" aria-label="setting" tabindex="-1" class="anticon anticon-setting"></span></div>
    <div class="ant-pro-sider-collapsed-button"><svg></svg></div>
    <span role="img" aria-label="reload" class="anticon anticon-reload" id="elsewhere"></span>`;
  return {
    reload: document.querySelector<HTMLElement>('.anticon-reload')!,
    density: document.querySelector<HTMLElement>('.anticon-column-height')!,
    columns: document.querySelector<HTMLElement>('.anticon-setting')!,
    menu: document.querySelector<HTMLElement>('.ant-pro-sider-collapsed-button')!,
    elsewhere: document.getElementById('elsewhere')!,
  };
}

const key = (target: HTMLElement, name: string) => {
  const event = new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true });
  Object.defineProperty(event, 'target', { value: target });
  pressIconControl(event);
  return event;
};

describe('icon controls the keyboard reaches', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('gives the table toolbar icons and the menu arrow a tab stop, a button role and a name in the page language', () => {
    const icons = page();
    keyboardIconControls(document, NAMES, true);
    for (const [icon, name] of [
      [icons.reload, 'Reload'],
      [icons.density, 'Density'],
      [icons.columns, 'Columns'],
      [icons.menu, 'Side menu'],
    ] as const) {
      expect([icon.tabIndex, icon.getAttribute('role'), icon.getAttribute('aria-label')]).toEqual([0, 'button', name]);
    }
    expect(icons.menu.getAttribute('aria-expanded')).toBe('true');
    // An icon that is only a picture stays one.
    expect([icons.elsewhere.getAttribute('role'), icons.elsewhere.hasAttribute('tabindex')]).toEqual(['img', false]);

    keyboardIconControls(document, { ...NAMES, reload: '再読み込み' }, false);
    expect(icons.reload.getAttribute('aria-label')).toBe('再読み込み');
    expect(icons.menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('presses a control on Enter or Space, and nothing else on other keys or elements', () => {
    const icons = page();
    keyboardIconControls(document, NAMES, true);
    const clicked = vi.fn();
    icons.density.addEventListener('click', clicked);
    icons.elsewhere.addEventListener('click', clicked);
    expect(key(icons.density, 'Enter').defaultPrevented).toBe(true);
    key(icons.density, ' ');
    key(icons.density, 'a');
    key(icons.elsewhere, 'Enter');
    expect(clicked).toHaveBeenCalledTimes(2);
  });
});
