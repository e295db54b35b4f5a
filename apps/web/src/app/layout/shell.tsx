import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfigProvider, Drawer, Layout, Menu, Tooltip, theme, type MenuProps, type ThemeConfig } from 'antd';
import { MenuOutlined } from '@ant-design/icons';
import { ShellFrameContext } from '../../components/page-container.tsx';
import './shell.css';

/** The side menu's widths, open and narrow (spec section 9). */
export const SIDER_WIDTH = 256;
export const SIDER_COLLAPSED_WIDTH = 80;

export interface ShellMenuItem {
  path: string;
  name: string;
  icon?: ReactNode;
  hidden?: boolean;
  children?: ShellMenuItem[];
}

/**
 * The menu entries a path lights up: every entry the path is, or lies under, with the entries that hold it
 * (a detail page lights its section, as the menu drew it before).
 */
export function matchedKeys(pathname: string, items: readonly ShellMenuItem[]): string[] {
  const keys: string[] = [];
  for (const item of items) {
    const inner = item.children ? matchedKeys(pathname, item.children) : [];
    if (inner.length) keys.push(item.path, ...inner);
    else if (pathname === item.path || pathname.startsWith(`${item.path}/`)) keys.push(item.path);
  }
  return keys;
}

/** The side menu's look: white, no bar beside the chosen entry, a light grey behind it (the former ProLayout's). */
function useMenuTheme(): ThemeConfig {
  const { token } = theme.useToken();
  return useMemo(
    () => ({
      components: {
        Menu: {
          itemBg: '#fff',
          subMenuItemBg: token.colorBgElevated,
          itemBorderRadius: token.borderRadius,
          itemSelectedBg: 'rgba(0, 0, 0, 0.04)',
          itemHoverBg: 'rgba(0, 0, 0, 0.03)',
          itemActiveBg: token.colorBgTextActive,
          horizontalItemSelectedBg: 'rgba(0, 0, 0, 0.04)',
          activeBarWidth: 0,
          activeBarHeight: 0,
          activeBarBorderWidth: 0,
          itemColor: token.colorTextSecondary,
          itemHoverColor: token.colorText,
          itemSelectedColor: 'rgba(0, 0, 0, 0.95)',
          popupBg: token.colorBgElevated,
          darkSubMenuItemBg: 'transparent',
          darkPopupBg: token.colorBgElevated,
        },
      },
    }),
    [token],
  );
}

/** A top entry's name beside it while the menu is narrow (icons only). */
function NarrowTooltip({ collapsed, title, children }: { collapsed: boolean; title: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [collapsed]);
  return (
    <Tooltip title={title} open={collapsed ? open : false} placement="right" onOpenChange={setOpen}>
      {children}
    </Tooltip>
  );
}

function SideMenu({
  items,
  pathname,
  collapsed,
  onNavigate,
}: {
  items: readonly ShellMenuItem[];
  pathname: string;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const matched = useMemo(() => matchedKeys(pathname, items), [pathname, items]);
  const matchedKey = matched.join('-');
  // A new page opens the sections that lead to it and closes the others, as the former menu did; between pages
  // the sections stay as the person opened them.
  const [opened, setOpened] = useState({ page: matchedKey, keys: matched });
  const openKeys = opened.page === matchedKey ? opened.keys : matched;

  // One set of class names (and rules in shell.css) for both modes: ProLayout's are the same under either prefix.
  const base = 'ant-pro-base-menu-inline';
  const toItem = (item: ShellMenuItem, level: number): NonNullable<MenuProps['items']>[number] | null => {
    if (item.hidden) return null;
    const collapsedClasses = collapsed ? ` ${base}-item-title-collapsed ${base}-item-title-collapsed-level-${level}` : '';
    const title = (
      <div className={`${base}-item-title${collapsedClasses}`}>
        {level === 0 && item.icon && <span className={`${base}-item-icon`}>{item.icon}</span>}
        <span className={level === 0 && item.icon ? `${base}-item-text ${base}-item-text-has-icon` : `${base}-item-text`}>{item.name}</span>
      </div>
    );
    const children = item.children?.map((child) => toItem(child, level + 1)).filter((child) => child !== null);
    if (children?.length)
      return {
        key: item.path,
        label: title,
        children,
        className: item.icon && level === 0 ? `${base}-submenu ${base}-submenu-has-icon` : `${base}-submenu`,
      };
    const link = (
      <Link to={item.path} onClick={onNavigate}>
        {title}
      </Link>
    );
    return {
      key: item.path,
      className: `${base}-menu-item`,
      label:
        level === 0 ? (
          <NarrowTooltip collapsed={collapsed} title={item.name}>
            {link}
          </NarrowTooltip>
        ) : (
          link
        ),
    };
  };

  return (
    <Menu
      // The narrow menu names its entries in tooltips of its own (NarrowTooltip), only for the top entries.
      _internalDisableMenuItemTitleTooltip
      // Narrow, the menu opens its sections beside it (vertical), as ProLayout's did.
      mode={collapsed ? 'vertical' : 'inline'}
      inlineIndent={16}
      selectedKeys={matched}
      {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpened({ page: matchedKey, keys }) })}
      className={collapsed ? `ant-pro-sider-menu ${base} ${base}-collapsed` : `ant-pro-sider-menu ${base}`}
      style={{ backgroundColor: 'transparent', border: 'none', width: '100%' }}
      items={items.map((item) => toItem(item, 0)).filter((item) => item !== null)}
    />
  );
}

/** ProLayout's arrow on the side menu's edge. */
function CollapseArrow() {
  return (
    <svg width="1em" height="1em" viewBox="0 0 12 12" fill="currentColor" aria-hidden="true">
      <path d="M6.432 7.967a.448.448 0 01-.318.133h-.228a.46.46 0 01-.318-.133L2.488 4.85a.305.305 0 010-.43l.427-.43a.293.293 0 01.42 0L6 6.687l2.665-2.699a.299.299 0 01.426 0l.42.431a.305.305 0 010 .43L6.432 7.967z" />
    </svg>
  );
}

export interface ShellProps {
  phone: boolean;
  /** The narrow menu on a wider window; on a phone, the drawer closed. */
  collapsed: boolean;
  onCollapse(collapsed: boolean): void;
  title: string;
  logo: ReactNode;
  onLogoClick(): void;
  items: readonly ShellMenuItem[];
  pathname: string;
  footer: ReactNode;
  children: ReactNode;
}

/**
 * The signed-in frame: the side menu (a drawer behind a header button on a phone), the page and the footer. Its
 * DOM and class names are those ProLayout drew, with ProLayout's styles in shell.css, so the look, the journeys'
 * selectors and the phone and keyboard behaviour stay as they were without loading pro-layout.
 */
export function Shell({ phone, collapsed, onCollapse, title, logo, onLogoClick, items, pathname, footer, children }: ShellProps) {
  const [footerBar, setFooterBar] = useState(false);
  const siderWidth = phone ? 0 : collapsed ? SIDER_COLLAPSED_WIDTH : SIDER_WIDTH;
  const frame = useMemo(() => ({ siderWidth, setFooterBar }), [siderWidth]);
  const closeDrawer = useCallback(() => onCollapse(true), [onCollapse]);
  const menuTheme = useMenuTheme();
  // On reaching a phone's width the menu starts closed (a drawer), as ProLayout did.
  useEffect(() => {
    if (phone) onCollapse(true);
  }, [phone, onCollapse]);

  const menu = (
    <div style={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
      <SideMenu items={items} pathname={pathname} collapsed={!phone && collapsed} onNavigate={phone ? closeDrawer : undefined} />
    </div>
  );

  // In the drawer too, where it closes the drawer (the menu is never narrow there).
  const collapseButton = (
    <div
      className={
        !phone && collapsed ? 'ant-pro-sider-collapsed-button ant-pro-sider-collapsed-button-collapsed' : 'ant-pro-sider-collapsed-button'
      }
      onClick={() => onCollapse(!collapsed)}
    >
      <CollapseArrow />
    </div>
  );

  const sider = phone ? (
    <Drawer
      open={!collapsed}
      placement="left"
      className="ant-pro-drawer-sider"
      style={{ padding: 0, height: '100vh' }}
      onClose={closeDrawer}
      maskClosable
      closable={false}
      // In the layout rather than the body, as ProLayout's: the floor plan is a stacking context under it.
      getContainer={false}
      width={SIDER_WIDTH}
      styles={{ body: { height: '100vh', padding: 0, display: 'flex', flexDirection: 'row', backgroundColor: '#fff' } }}
    >
      <Layout.Sider
        collapsible
        trigger={null}
        collapsed={false}
        breakpoint="lg"
        width={SIDER_WIDTH}
        className="ant-pro-sider ant-pro-sider-fixed ant-pro-sider-light"
      >
        {menu}
        {collapseButton}
      </Layout.Sider>
    </Drawer>
  ) : (
    <>
      <div
        style={{
          width: siderWidth,
          overflow: 'hidden',
          flex: `0 0 ${siderWidth}px`,
          maxWidth: siderWidth,
          minWidth: siderWidth,
          transition: 'all 0.2s ease 0s',
        }}
      />
      <Layout.Sider
        collapsible
        trigger={null}
        collapsed={collapsed}
        // Below antd's lg breakpoint (a tablet) the menu narrows by itself, and widens again above it.
        breakpoint="lg"
        onCollapse={(narrow) => onCollapse(narrow)}
        width={SIDER_WIDTH}
        collapsedWidth={SIDER_COLLAPSED_WIDTH}
        className={
          collapsed
            ? 'ant-pro-sider ant-pro-sider-fixed ant-pro-sider-collapsed ant-pro-sider-layout-side ant-pro-sider-light'
            : 'ant-pro-sider ant-pro-sider-fixed ant-pro-sider-layout-side ant-pro-sider-light'
        }
      >
        <div
          className={collapsed ? 'ant-pro-sider-logo ant-pro-sider-logo-collapsed' : 'ant-pro-sider-logo'}
          id="logo"
          onClick={onLogoClick}
        >
          <a>
            {logo}
            {!collapsed && <h1>{title}</h1>}
          </a>
        </div>
        {menu}
        {collapseButton}
      </Layout.Sider>
    </>
  );

  return (
    <ShellFrameContext.Provider value={frame}>
      <div className="lg-layout ant-pro-layout ant-pro-layout-fix-siderbar ant-pro-layout-side">
        <div className="ant-pro-layout-bg-list" />
        <Layout style={{ minHeight: '100%', flexDirection: 'row' }}>
          <ConfigProvider theme={menuTheme}>{sider}</ConfigProvider>
          <div className="ant-pro-layout-container" style={{ position: 'relative' }}>
            {phone && (
              <Layout.Header className="ant-pro-layout-header ant-pro-layout-header-header">
                <div className="ant-pro-global-header">
                  <span className="ant-pro-global-header-collapsed-button" onClick={() => onCollapse(!collapsed)}>
                    <MenuOutlined />
                  </span>
                  <span className="ant-pro-global-header-logo ant-pro-global-header-logo-mobile">
                    <a onClick={onLogoClick}>{logo}</a>
                  </span>
                  <div style={{ flex: 1 }} />
                </div>
              </Layout.Header>
            )}
            <main
              className="ant-layout-content ant-pro-layout-content ant-pro-layout-has-header ant-pro-layout-content-has-page-container"
              style={{ padding: 0 }}
            >
              {children}
            </main>
            {footer}
            {footerBar && <div className="ant-pro-layout-has-footer" style={{ height: 64, marginBlockStart: 24 }} />}
          </div>
        </Layout>
      </div>
    </ShellFrameContext.Provider>
  );
}
