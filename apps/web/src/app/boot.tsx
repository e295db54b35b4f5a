import { createContext, useCallback, useContext, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { companyDefaultConfig, DEFAULT_COMPANY, isCompanyCode, type Lang, type Mode, type SystemInfo } from '@lumigrid/contract/browser';
import { useHostConfig } from '../features/branding/api.ts';
import { resolveBranding, type ResolvedBranding } from '../features/branding/branding.ts';
import { useSystemInfo } from '../features/system/api.ts';
import { useQueryClient } from '@tanstack/react-query';
import { authKeys, saveAccountLanguage } from '../features/auth/api.ts';
import { session } from '../api/session.ts';
import { applyLanguage, languageToUse } from '../i18n/index.ts';

/** What every screen may need before and after sign-in: mode, branding, language. */
export interface Boot {
  ready: boolean;
  mode: Mode;
  info?: SystemInfo;
  branding: ResolvedBranding;
  lang: Lang;
  /** A choice by the user: persisted on this device, and on the account when signed in. */
  chooseLang(lang: Lang): void;
  /** A language set by the app (after sign-in, from the account); persisted on this device. */
  adoptLang(lang: Lang): void;
}

const BootContext = createContext<Boot | undefined>(undefined);

export function useBoot(): Boot {
  const boot = useContext(BootContext);
  if (!boot) throw new Error('useBoot outside BootProvider');
  return boot;
}

function setFavicon(href: string) {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  if (link.getAttribute('href') !== href) {
    link.removeAttribute('type');
    link.href = href;
  }
}

export function BootProvider({ children }: { children: ReactNode }) {
  const hostname = window.location.hostname;
  const info = useSystemInfo();
  const host = useHostConfig(hostname);
  const [choice, setChoice] = useState<Lang | undefined>(() => session.lang());

  const company = isCompanyCode(info.data?.company) ? info.data.company : DEFAULT_COMPANY;
  const brandingLang = (host.data ?? companyDefaultConfig(company)).language;
  const lang = languageToUse(choice, brandingLang);
  const branding = useMemo(() => resolveBranding(host.data ?? undefined, hostname, company, lang), [host.data, hostname, company, lang]);

  // The first screen waits for its language's texts; a later switch keeps the old texts until they arrive.
  const [textsReady, setTextsReady] = useState(false);
  useLayoutEffect(() => {
    let current = true;
    void applyLanguage(lang).then(() => current && setTextsReady(true));
    return () => {
      current = false;
    };
  }, [lang]);
  useLayoutEffect(() => {
    document.title = branding.title;
    setFavicon(branding.iconUrl);
  }, [branding.title, branding.iconUrl]);

  const queryClient = useQueryClient();
  const adoptLang = useCallback((next: Lang) => {
    session.setLang(next);
    setChoice(next);
  }, []);
  const chooseLang = useCallback(
    (next: Lang) => {
      adoptLang(next);
      // The account keeps the choice too, so the next device and the server's messages follow it.
      if (session.token()) void saveAccountLanguage({ lang: next }).then(() => queryClient.invalidateQueries({ queryKey: authKeys.me() }));
    },
    [adoptLang, queryClient],
  );

  const value = useMemo<Boot>(
    () => ({
      ready: !info.isPending && !host.isPending && textsReady,
      // Without an answer from the server, assume SaaS: its login offers every method.
      mode: info.data?.mode ?? 'saas',
      info: info.data,
      branding,
      lang,
      chooseLang,
      adoptLang,
    }),
    [info.isPending, info.data, host.isPending, textsReady, branding, lang, chooseLang, adoptLang],
  );
  return <BootContext.Provider value={value}>{children}</BootContext.Provider>;
}
