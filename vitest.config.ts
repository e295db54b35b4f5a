import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace; browser journeys live in e2e/ with their own config.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      { test: { name: 'protocol', include: ['packages/protocol/src/**/*.test.ts'] } },
      { test: { name: 'sdk', include: ['packages/sdk/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          setupFiles: ['apps/server/src/test/setup.ts'],
          // The suites share nothing at module level (each builds its own app, database and broker), so a worker
          // imports the server once for all its files instead of once per file: a third of the suite's CPU.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'web', include: ['apps/web/src/**/*.test.ts'] } },
      {
        // React components in a simulated DOM; the web's plain .test.ts files stay in node above.
        test: {
          name: 'web-components',
          include: ['apps/web/src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          // antd renders a lot for jsdom; a busy machine must not turn a slow render into a failure (beside the
          // journeys in CI, tests of 2-5 s took 20-26 s).
          testTimeout: 60_000,
        },
      },
      { test: { name: 'gateway-sim', include: ['apps/gateway-sim/src/**/*.test.ts'] } },
      {
        test: {
          name: 'z2m-bridge',
          include: ['apps/z2m-bridge/src/**/*.test.ts'],
          // zigbee-herdsman-converters loads a definition module on first use: seconds on a busy machine.
          testTimeout: 30_000,
        },
      },
    ],
    passWithNoTests: true,
    // Vitest's default leaves a core idle (one worker on two cores); the suites also wait on timers, sockets and
    // the database, so one worker per core keeps the machine busy. UNIT_WORKERS tunes it.
    maxWorkers: Number(process.env.UNIT_WORKERS ?? 2),
  },
});
