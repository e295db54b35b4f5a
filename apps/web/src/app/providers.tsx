import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider, Spin } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, configureApiClient } from '../api/client.ts';
import { failureText } from '../api/failure-text.ts';
import { session, signOutRoute } from '../api/session.ts';
import { ANTD_LOCALES } from '../i18n/index.ts';
import { BootProvider, useBoot } from './boot.tsx';
import { THEME } from './theme.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    // The platform is often served on a LAN with no internet (server mode), where the browser may report
    // navigator.onLine = false; React Query would then pause every call forever. Our own server is the only
    // network that matters, and the client's timeout already reports it when it is unreachable.
    queries: {
      networkMode: 'always',
      refetchOnWindowFocus: false,
      // The client already told the user about failed calls; retrying them would repeat the message.
      retry: (count, error) => !(error instanceof ApiError) && count < 1,
    },
    mutations: { networkMode: 'always', retry: false },
  },
});

/** Connects the one HTTP client to this app: language, login route, messages. */
function ApiBridge() {
  const { message } = AntApp.useApp();
  const { t } = useTranslation();
  const { mode, lang } = useBoot();
  useEffect(() => {
    configureApiClient({
      lang: () => lang,
      loginPath: () => signOutRoute(mode, session.loginType()),
      notify: (action) => {
        const text = failureText(action);
        if (!text) return;
        const content = 'text' in text ? text.text : t(text.key, text.vars ?? {});
        // One toast per kind of session trouble, however many calls failed at once.
        const key = action.kind === 'business' ? undefined : action.kind;
        void message.error({ content, key });
      },
    });
  }, [message, t, mode, lang]);
  return null;
}

function Themed({ children }: { children: ReactNode }) {
  const { lang, ready } = useBoot();
  return (
    <ConfigProvider locale={ANTD_LOCALES[lang]} theme={THEME}>
      <AntApp>
        <ApiBridge />
        {ready ? children : <Spin size="large" fullscreen />}
      </AntApp>
    </ConfigProvider>
  );
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BootProvider>
        <Themed>{children}</Themed>
      </BootProvider>
    </QueryClientProvider>
  );
}
