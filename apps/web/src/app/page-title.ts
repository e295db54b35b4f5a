import { useEffect } from 'react';
import { useBoot } from './boot.tsx';

/** The tab's title: the page's name before the brand's, so tabs and history tell pages apart. */
export function usePageTitle(name: string | undefined) {
  const { branding } = useBoot();
  useEffect(() => {
    document.title = name ? `${name} · ${branding.title}` : branding.title;
  }, [name, branding.title]);
}

/** The title key of each public /user page, by the last part of its path. */
export const USER_PAGE_TITLES: Readonly<Record<string, 'login.title' | 'register.title' | 'forgot.title' | 'registerResult.title'>> = {
  login: 'login.title',
  'tel-login': 'login.title',
  registered: 'register.title',
  'tel-registered': 'register.title',
  forgetPwd: 'forgot.title',
  'register-result': 'registerResult.title',
};
