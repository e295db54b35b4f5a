import { defineConfig } from 'vitest/config';

// Browser journeys: each file starts its own server (fresh data folder, free ports) and a fresh Chromium.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // One server + one browser per file; running files side by side only fights over the CPU.
    fileParallelism: false,
  },
});
