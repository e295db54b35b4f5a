import { statSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

const WORKERS = Number(process.env.E2E_WORKERS ?? 3);

/**
 * Longest first, so that no worker is left with a long file at the end: the tours take several times longer than
 * any journey, and among the journeys a larger file takes longer. Only one tour starts at once: the first file that
 * needs the demo site seeds it for the others (support/demo-site.ts) while they wait, so the other workers first take
 * the longest journeys, which need no seed, and the other tours follow once the seed is likely made.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const isTour = (spec: TestSpecification) => /[\\/]tour-[a-z]+\.e2e\.test\.ts$/.test(spec.moduleId);
    const size = (spec: TestSpecification) => statSync(spec.moduleId).size;
    const tours = sorted.filter(isTour).sort((a, b) => Number(/tour-en\./.test(b.moduleId)) - Number(/tour-en\./.test(a.moduleId)));
    const journeys = sorted.filter((spec) => !isTour(spec)).sort((a, b) => size(b) - size(a));
    return [...tours.slice(0, 1), ...journeys.slice(0, WORKERS - 1), ...tours.slice(1), ...journeys.slice(WORKERS - 1)];
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
    maxWorkers: WORKERS,
    sequence: { sequencer: LongestFirst },
  },
});
