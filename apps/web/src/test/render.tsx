import type { ReactElement } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Lang } from '@lumigrid/contract/browser';
import { applyLanguage } from '../i18n/index.ts';
import { loadAntdLocale } from '../i18n/antd-locales.ts';

/**
 * Renders a component inside the app's providers (texts in `lang`, antd's App for messages, a query client that
 * never retries), with a user-event session. Texts of every language are loaded before the first render.
 */
export async function renderInApp(ui: ReactElement, { lang = 'en' }: { lang?: Lang } = {}) {
  await applyLanguage(lang);
  const antdLocale = await loadAntdLocale(lang);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user = userEvent.setup({ delay: null });
  const result: RenderResult = render(
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={antdLocale}>
        <AntApp>{ui}</AntApp>
      </ConfigProvider>
    </QueryClientProvider>,
  );
  return { ...result, user, queryClient };
}

/** The markup of what `ui` draws (tags, classes, styles and content, the way a stylesheet and a journey see it). */
export async function renderedMarkup(ui: ReactElement): Promise<string> {
  const { container } = await renderInApp(ui);
  const html = container.innerHTML;
  cleanup();
  return html;
}
