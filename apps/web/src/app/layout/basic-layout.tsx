import { Suspense, lazy, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { Avatar, Breadcrumb, ConfigProvider, Dropdown, Spin, Tag } from 'antd';
import {
  AlertOutlined,
  ApiOutlined,
  ApartmentOutlined,
  BulbOutlined,
  ClusterOutlined,
  CloudServerOutlined,
  HomeOutlined,
  NotificationOutlined,
  SafetyCertificateOutlined,
  LogoutOutlined,
  ControlOutlined,
  SettingOutlined,
  ThunderboltOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@lumigrid/contract/browser';
import { session, signOutRoute } from '../../api/session.ts';
import { logout, useMe } from '../../features/auth/api.ts';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { RealtimeProvider, type RealtimeControl } from '../realtime-provider.tsx';
import { LanguageSelect } from '../language-select.tsx';
import { useBoot } from '../boot.tsx';
import { SyncBanner } from './sync-banner.tsx';
import { AlarmBanner } from './alarm-banner.tsx';
import { breadcrumbFor } from '../breadcrumb.ts';
import { usePageTitle } from '../page-title.ts';
import { buildMenu, canOpen, integratorLinks, type MenuEntry, type MenuIcon } from '../menu.ts';
import { layoutTheme, usePhone } from '../../components/use-phone.ts';
import { useTableCardLabels } from './table-card-labels.ts';
import { useFocusableScrollingTables } from './table-scroll-focus.ts';
import { useKeyboardIconControls } from './icon-controls.ts';
import { Shell, type ShellMenuItem } from './shell.tsx';
import './basic-layout.css';
import './phone.css';

const Forbidden = lazy(() => import('./forbidden.tsx'));

/** Below antd's lg breakpoint the full side menu would take a third of the window. */
const TABLET_MAX_PX = 992;

const ICONS: Record<MenuIcon, ReactNode> = {
  home: <HomeOutlined />,
  project: <ApartmentOutlined />,
  device: <BulbOutlined />,
  gateway: <ClusterOutlined />,
  scene: <ControlOutlined />,
  energy: <ThunderboltOutlined />,
  emergency: <SafetyCertificateOutlined />,
  alert: <AlertOutlined />,
  push: <NotificationOutlined />,
  system: <SettingOutlined />,
};

/** The authenticated shell of spec section 2: side menu, breadcrumb header, user dropdown, footer. */
export default function BasicLayout() {
  const { t } = useTranslation();
  const { mode, info, branding } = useBoot();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  // A tablet starts with the narrow (80 px) menu, as ProLayout does by itself below its lg breakpoint.
  const [collapsed, setCollapsed] = useState(() => window.innerWidth < TABLET_MAX_PX);
  const realtime = useRef<RealtimeControl>(null);
  const user = me.data;
  const phone = usePhone();
  useTableCardLabels(phone);
  useFocusableScrollingTables();
  useKeyboardIconControls(
    {
      reload: t('layout.reloadTable'),
      density: t('layout.tableDensity'),
      columns: t('layout.tableColumns'),
      sideMenu: t('layout.sideMenu'),
    },
    !collapsed,
  );
  const [userMenuOpen, setUserMenuOpen] = useState(false);

  const menu = useMemo(() => (user ? buildMenu(user, mode) : []), [user, mode]);
  const items = useMemo(() => {
    const toItem = (entry: MenuEntry): ShellMenuItem => ({
      path: entry.path,
      name: t(entry.labelKey),
      icon: entry.icon ? ICONS[entry.icon] : undefined,
      hidden: entry.hidden,
      children: entry.children?.map(toItem),
    });
    return menu.map(toItem);
  }, [menu, t]);

  const crumbs = breadcrumbFor(pathname, menu);
  const here = crumbs[crumbs.length - 1];
  usePageTitle(here ? t(here.labelKey) : undefined);

  if (!user) return <Spin size="large" fullscreen />;

  const signOut = async () => {
    const target = signOutRoute(mode, session.loginType());
    // The server closes this session's socket on sign-out; stop first so that is not taken for a forced logout.
    await realtime.current?.stop();
    await logout();
    session.clear();
    queryClient.clear();
    void navigate(target, { replace: true });
  };

  const serverIp = mode === 'server' ? (info?.serverIp ?? user.server_ip) : null;

  const header = (
    // data-page: the route this layout has drawn, which trails the address while the next page loads.
    <div className="lg-header" data-page={pathname}>
      <Breadcrumb
        items={crumbs.map((crumb, index) => ({
          // Every outer crumb is a route (areas redirect to their first page); the last one is this page.
          title: index === crumbs.length - 1 ? t(crumb.labelKey) : <Link to={crumb.path}>{t(crumb.labelKey)}</Link>,
        }))}
      />
      <div className="lg-header__actions">
        <AlarmBanner userId={user.id} />
        <SyncBanner />
        {serverIp && (
          <Tag icon={<CloudServerOutlined />} color="blue" bordered={false}>
            {t('layout.serverIp', { ip: serverIp })}
          </Tag>
        )}
        <LanguageSelect />
        <Dropdown
          placement="bottomRight"
          open={userMenuOpen}
          onOpenChange={setUserMenuOpen}
          // Opened from the keyboard, the menu takes the focus so the arrow keys walk it.
          autoFocus
          menu={{
            items: [
              { key: 'center', icon: <UserOutlined />, label: t('layout.userCenter') },
              ...integratorLinks(user).map((link) => ({ key: link.path, icon: <ApiOutlined />, label: t(link.labelKey) })),
              { type: 'divider' },
              { key: 'signOut', icon: <LogoutOutlined />, label: t('layout.signOut') },
            ],
            onClick: ({ key }) => {
              setUserMenuOpen(false);
              if (key === 'center') void navigate('/system/center');
              else if (key === 'signOut') void signOut();
              else void navigate(key);
            },
          }}
        >
          {/* A button, so the keyboard reaches the menu (and signing out): Enter, Space or the down arrow open it. */}
          <button
            type="button"
            className="lg-header__user"
            data-testid="user-menu"
            aria-haspopup="menu"
            aria-expanded={userMenuOpen}
            onKeyDown={(event) => {
              if (event.key !== 'Enter' && event.key !== ' ' && event.key !== 'ArrowDown') return;
              event.preventDefault();
              setUserMenuOpen(true);
            }}
          >
            <Avatar aria-hidden size="small" src={user.head_img || undefined} icon={<UserOutlined />} />
            <span className="lg-header__user-name">{user.name || user.account}</span>
          </button>
        </Dropdown>
      </div>
    </div>
  );

  return (
    <RealtimeProvider userId={user.id} control={realtime}>
      {/* Nested: antd merges it over the app's theme, and modals and drawers opened inside inherit it. */}
      <ConfigProvider theme={layoutTheme(phone)}>
        <Shell
          phone={phone}
          collapsed={collapsed}
          onCollapse={setCollapsed}
          title={branding.name}
          logo={<BrandLogo src={user.company_logo ?? branding.logoUrl} alt={branding.name} />}
          onLogoClick={() => void navigate('/home')}
          items={items}
          pathname={pathname}
          footer={
            <footer className="lg-footer">
              {branding.companyInfo && <span>{branding.companyInfo}</span>}
              <span>{t('layout.version', { version: LIMITS.version })}</span>
            </footer>
          }
        >
          {header}
          {canOpen(pathname, user, mode) ? (
            <Outlet />
          ) : (
            <Suspense fallback={null}>
              <Forbidden />
            </Suspense>
          )}
        </Shell>
      </ConfigProvider>
    </RealtimeProvider>
  );
}
