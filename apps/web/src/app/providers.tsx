import { useEffect, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, configureApiClient } from '../api/client.ts';
import { failureText } from '../api/failure-text.ts';
import { session, signOutRoute } from '../api/session.ts';
import { LightSpin } from '../components/light-controls.tsx';
import { BootProvider, useBoot } from './boot.tsx';
import { toast } from './toast.ts';

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
        toast('error', content, action.kind === 'business' ? undefined : action.kind);
      },
    });
  }, [t, mode, lang]);
  return null;
}

function Booted({ children }: { children: ReactNode }) {
  const { ready } = useBoot();
  return (
    <>
      <ApiBridge />
      {ready ? children : <LightSpin size="large" fullscreen />}
    </>
  );
}

/**
 * What every screen runs in: the query client, mode, branding and language. antd's providers are not here but
 * with the screens drawn with antd (antd-scope.tsx), so the pages before sign-in load no antd.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BootProvider>
        <Booted>{children}</Booted>
      </BootProvider>
    </QueryClientProvider>
  );
}
