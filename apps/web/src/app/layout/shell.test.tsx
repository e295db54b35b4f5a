import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { PageContainer } from '../../components/page-container.tsx';
import { PageTabs } from '../../components/page-tabs.tsx';
import { matchedKeys, Shell, type ShellMenuItem } from './shell.tsx';

const MENU: ShellMenuItem[] = [
  { path: '/home', name: 'Home' },
  {
    path: '/device',
    name: 'Devices',
    children: [
      { path: '/device/control', name: 'Device map' },
      { path: '/device/config/list', name: 'Device configuration' },
      { path: '/device/config/detail', name: 'Configuration', hidden: true },
    ],
  },
  { path: '/heatmap', name: 'Heatmap', hidden: true },
];

function renderShell(props: { phone?: boolean; collapsed?: boolean; onCollapse?: (collapsed: boolean) => void; pathname?: string }) {
  const { phone = false, collapsed = false, onCollapse = () => undefined, pathname = '/device/control' } = props;
  return render(
    <MemoryRouter initialEntries={[pathname]}>
      <Shell
        phone={phone}
        collapsed={collapsed}
        onCollapse={onCollapse}
        title="Lumigrid"
        logo={<img alt="Lumigrid" src="/logo.svg" />}
        onLogoClick={() => undefined}
        items={MENU}
        pathname={pathname}
        footer={<footer>Version 1</footer>}
      >
        <PageContainer title="Device map" extra={<button type="button">Heatmap</button>} content="Where the lights are">
          the plan
        </PageContainer>
      </Shell>
    </MemoryRouter>,
  );
}

describe('matchedKeys', () => {
  it('lights the page and the section holding it, a detail page its section, a page outside the menu nothing', () => {
    expect(matchedKeys('/device/control', MENU)).toEqual(['/device', '/device/control']);
    expect(matchedKeys('/device/config/detail', MENU)).toEqual(['/device', '/device/config/detail']);
    expect(matchedKeys('/home', MENU)).toEqual(['/home']);
    expect(matchedKeys('/heatmap', MENU)).toEqual(['/heatmap']);
    expect(matchedKeys('/nowhere', MENU)).toEqual([]);
  });
});

describe('Shell', () => {
  it('draws the side menu with the open section and the chosen page, and no hidden entries', () => {
    const { container } = renderShell({});
    const sider = container.querySelector('.ant-pro-sider')!;
    expect(sider.querySelector('.ant-pro-sider-logo h1')?.textContent).toBe('Lumigrid');
    const items = Array.from(sider.querySelectorAll('[role=menuitem]')).map((item) => item.textContent);
    expect(items).toEqual(['Home', 'Devices', 'Device map', 'Device configuration']);
    expect(sider.querySelector('.ant-menu-item-selected')?.textContent).toBe('Device map');
    expect(screen.getByRole('link', { name: 'Device map' }).getAttribute('href')).toBe('/device/control');
    expect(container.querySelector('.ant-pro-global-header')).toBeNull();
    screen.getByText('Version 1');
  });

  it('narrows the menu from its edge button and names the entries only by icon then', () => {
    const onCollapse = vi.fn();
    const { container, rerender } = renderShell({ onCollapse });
    fireEvent.click(container.querySelector('.ant-pro-sider-collapsed-button')!);
    expect(onCollapse).toHaveBeenCalledWith(true);
    rerender(
      <MemoryRouter initialEntries={['/device/control']}>
        <Shell
          phone={false}
          collapsed
          onCollapse={onCollapse}
          title="Lumigrid"
          logo={<img alt="Lumigrid" src="/logo.svg" />}
          onLogoClick={() => undefined}
          items={MENU}
          pathname="/device/control"
          footer={null}
        >
          page
        </Shell>
      </MemoryRouter>,
    );
    expect(container.querySelector('.ant-pro-sider-logo h1')).toBeNull();
    expect(container.querySelector('.ant-pro-sider-collapsed-button-collapsed')).not.toBeNull();
    expect(container.querySelector('.ant-pro-base-menu-inline-collapsed')).not.toBeNull();
  });

  it('puts the menu in a drawer behind the header button on a phone', () => {
    const onCollapse = vi.fn();
    const { container } = renderShell({ phone: true, collapsed: true, onCollapse });
    expect(container.querySelector('.ant-pro-sider-layout-side')).toBeNull();
    fireEvent.click(container.querySelector('.ant-pro-global-header-collapsed-button')!);
    expect(onCollapse).toHaveBeenLastCalledWith(false);
  });

  it('closes the phone drawer when a page is chosen in it', () => {
    const onCollapse = vi.fn();
    const { container } = renderShell({ phone: true, collapsed: false, onCollapse });
    const drawer = container.querySelector('.ant-drawer-content')!;
    expect(drawer.querySelector('.ant-pro-sider-menu')).not.toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Device configuration' }));
    expect(onCollapse).toHaveBeenLastCalledWith(true);
  });
});

describe('PageContainer', () => {
  it('draws the title, actions, explanation, tabs and back arrow with the class names pages and journeys use', () => {
    const onBack = vi.fn();
    const onTabChange = vi.fn();
    const { container } = render(
      <PageContainer
        title="Emergency lighting"
        tags={<span>tag</span>}
        extra={<button type="button">Add</button>}
        content="What runs when"
        onBack={onBack}
        tabs={
          <PageTabs
            items={[
              { key: 'tasks', tab: 'Tasks' },
              { key: 'map', tab: 'Map' },
            ]}
            activeKey="tasks"
            onChange={onTabChange}
          />
        }
      >
        body
      </PageContainer>,
    );
    expect(container.querySelector('.ant-page-header-heading-title')?.textContent).toBe('Emergency lighting');
    expect(container.querySelector('.ant-page-header-heading-extra')?.textContent).toBe('Add');
    expect(container.querySelector('.ant-pro-page-container-content')?.textContent).toBe('What runs when');
    expect(container.querySelector('.ant-pro-page-container-children-container')?.textContent).toBe('body');
    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    expect(onBack).toHaveBeenCalled();
    fireEvent.click(screen.getByRole('tab', { name: 'Map' }));
    expect(onTabChange).toHaveBeenCalledWith('map');
  });

  it('draws no heading without a title, a spinner while loading, and a bar of buttons for a footer', () => {
    const { container, rerender } = render(<PageContainer title={false}>home</PageContainer>);
    expect(container.querySelector('.ant-page-header-heading')).toBeNull();
    expect(container.querySelector('.ant-page-header-no-children')).not.toBeNull();
    rerender(
      <PageContainer title="Scene" loading footer={<button type="button">Save</button>}>
        form
      </PageContainer>,
    );
    expect(container.querySelector('.ant-spin')).not.toBeNull();
    expect(screen.queryByText('form')).toBeNull();
    expect(container.querySelector('.ant-pro-footer-bar')?.textContent).toBe('Save');
  });
});
