import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';
import { pureSchemas } from './build/pure-schemas.ts';
import { SERVICE_WORKER_ENTRY, serviceWorkerShell } from './build/service-worker.ts';

/**
 * The sign-in page, the first most visits load, and what it shares with later screens: one chunk loaded with the
 * entry rather than a score of small ones, each of which costs a request and its headers (about 1 KB).
 */
const SIGN_IN_SHARED =
  /\/(node_modules\/(react-dom|scheduler|react-router|@tanstack\/(query-core|react-query)|i18next|react-i18next|json-bigint|bignumber\.js)\/|node_modules\/dayjs\/dayjs\.min\.js|node_modules\/@ant-design\/icons-svg\/es\/asn\/(Eye|EyeInvisible|Loading)Outlined\.js|apps\/web\/src\/(api|features\/(auth|branding|system))\/|apps\/web\/src\/i18n\/(index|lang-tags)\.ts|apps\/web\/src\/(app\/(boot|toast|menu)|components\/(light-|validators)|pages\/user\/(login-page|user-layout|light-|verified-|send-code|method-tabs|use-)))/;

/**
 * antd's providers (`antd-scope.tsx`, and `antd-toast.tsx`, antd's messages and dialogs, which the sign-in page may
 * show) and the signed-in shell (`basic-layout.tsx`), each with every module it imports that the sign-in's chunk does
 * not hold: every screen drawn with antd loads the first, every signed-in page both, as two files rather than forty.
 */
const ANTD_SCOPE = /\/apps\/web\/src\/app\/antd-(scope|toast)\.tsx$/;
const SIGNED_IN_SHELL = /\/apps\/web\/src\/app\/layout\/basic-layout\.tsx$/;

/** Modules whose loading has no effect beyond their exports: the contract and protocol packages, and TypeBox. */
const SCHEMA_ONLY_EFFECTS = /\/(packages\/(contract|protocol)\/src|node_modules\/typebox)\//;

const apiTarget = `http://127.0.0.1:${process.env.LUMIGRID_API_PORT ?? 8080}`;
const proxied = ['/api1', '/api4', '/api6', '/test', '/ws'];

export default defineConfig({
  plugins: [pureSchemas(), react(), serviceWorkerShell(), precompress()],
  server: {
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: apiTarget, changeOrigin: true, ws: prefix === '/ws' }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The authenticated shell (ProLayout, ProTable) is about 2 MB raw by itself; it loads lazily.
    chunkSizeWarningLimit: 2500,
    rolldownOptions: {
      // Loading the contract has no effect beyond its exports: what no page reads is dropped (build/pure-schemas.ts).
      treeshake: { moduleSideEffects: (id) => !SCHEMA_ONLY_EFFECTS.test(id) },
      input: { main: 'index.html', offline: 'offline.html', [SERVICE_WORKER_ENTRY]: 'src/offline/service-worker.ts' },
      // A service worker's scope is its folder: it must live at the root, under a name that never changes.
      output: {
        entryFileNames: (chunk) => (chunk.name === SERVICE_WORKER_ENTRY ? 'sw.js' : 'assets/[name]-[hash].js'),
        // In this order: a module goes to the first group that captures it.
        codeSplitting: {
          groups: [
            { name: 'sign-in-shared', test: SIGN_IN_SHARED },
            { name: 'antd-scope', test: ANTD_SCOPE },
            { name: 'signed-in-shell', test: SIGNED_IN_SHELL },
          ],
        },
      },
    },
  },
});
