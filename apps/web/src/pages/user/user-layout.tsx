import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@lumigrid/contract/browser';
import { useBoot } from '../../app/boot.tsx';
import { session } from '../../api/session.ts';
import { logout, authKeys } from '../../features/auth/api.ts';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { LightLanguageSelect } from '../../app/light-language-select.tsx';
import { USER_PAGE_TITLES, usePageTitle } from '../../app/page-title.ts';
import { useCompact } from './use-compact.ts';
import './user-layout.css';

/** The public shell of spec section 2: branding, language selector and a card for the form; drawn without antd. */
export default function UserLayout() {
  const { t } = useTranslation();
  const { branding } = useBoot();
  const compact = useCompact();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const titleKey = USER_PAGE_TITLES[pathname.split('/').pop() ?? ''];
  usePageTitle(titleKey ? t(titleKey) : undefined);

  // Entering the /user pages ends any session (spec section 2): the server's, then ours.
  useEffect(() => {
    if (!session.token()) return;
    void logout();
    session.clear();
    queryClient.removeQueries({ queryKey: authKeys.me() });
  }, [queryClient]);

  return (
    <div
      className={`lg-user lg-light${compact ? ' lg-user--compact' : ''}`}
      style={{ backgroundImage: `url("${session.loginBackground() ?? branding.backgroundUrl}")` }}
    >
      <div className="lg-user__top">{branding.languageChange && <LightLanguageSelect />}</div>
      <main className="lg-user__main">
        <div className="lg-user__card">
          <div className="lg-user__brand">
            <div className="lg-user__brand-row">
              <BrandLogo className="lg-user__logo" src={branding.logoUrl} alt={branding.name} />
              <span className="lg-user__name">{branding.name}</span>
            </div>
            <span className="lg-user__slogan">{t('common.slogan')}</span>
          </div>
          <Outlet />
        </div>
      </main>
      <footer className="lg-user__footer">
        {branding.companyInfo && <span>{branding.companyInfo}</span>}
        <span>{t('layout.version', { version: LIMITS.version })}</span>
      </footer>
    </div>
  );
}
