import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** The tour files take several times longer than any journey: they start first, so no worker is left with one at the end. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const isTour = (spec: TestSpecification) => /[\\/]tour-[a-z]+\.e2e\.test\.ts$/.test(spec.moduleId);
    return [...sorted.filter(isTour), ...sorted.filter((spec) => !isTour(spec))];
  }
}

// Browser journeys: each file starts its own server (fresh data folder, free ports) and its own browser context, so files
// share nothing and run side by side, three at a time by default (E2E_WORKERS): most of a journey's time is spent
// waiting on the browser, the server and the simulated gateways (two files at a time used a core and a quarter of
// two), so more files fill the cores the first leaves.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // expect.poll waits for a condition as every journey wait does, with the same patience (PATIENCE_MS in
    // support/browser.ts) instead of Vitest's one second, which a busy machine runs out of.
    expect: { poll: { timeout: 45_000 } },
    maxWorkers: Number(process.env.E2E_WORKERS ?? 3),
    sequence: { sequencer: LongestFirst },
  },
});
