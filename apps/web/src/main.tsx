import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import 'antd/dist/reset.css';
import './app/a11y.css';
import './i18n/index.ts';
import { configureApiClient } from './api/client.ts';
import { Providers } from './app/providers.tsx';
import { router } from './app/router.tsx';
import { makeInstallable } from './offline/install.ts';

configureApiClient({
  navigate: (path) => void router.navigate(path),
  currentPath: () => router.state.location.pathname,
});

makeInstallable();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
