/**
 * What Prometheus metrics cost: the same cheap request (GET /api1/system/v1/info through app.inject) on an app
 * with METRICS_TOKEN and one without, in interleaved rounds in one process, and the time and size of a scrape.
 * See bench/README.md ("Metrics").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '7' },
  },
});
const TOKEN = 'bench-metrics-token-0123456789';
const URL = '/api1/system/v1/info';

async function start(metrics: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lumigrid-bench-metrics-'));
  const database = await openDatabase({ memory: true });
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST: join(dataDir, 'no-web'),
    ADMIN_PASSWORD: 'Bench-Pass-2026',
    DEMO: 'off',
    ...(metrics ? { METRICS_TOKEN: TOKEN } : {}),
  });
  const app = await buildApp({ config, database, logger: { level: 'warn' }, jobs: { start: false } });
  return {
    app,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const plain = await start(false);
const measured = await start(true);
try {
  const n = Number(args.requests);
  const perRequest = { plain: [] as number[], measured: [] as number[] };
  // Interleaved, so a machine busy with something else slows both alike.
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const [name, h] of [
      ['plain', plain],
      ['measured', measured],
    ] as const) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await h.app.inject({ method: 'GET', url: URL });
      perRequest[name].push(((performance.now() - t0) / n) * 1000);
    }
  }
  const scrapes: number[] = [];
  let body = '';
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    body = (await measured.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    scrapes.push(performance.now() - t0);
  }
  const plainUs = median(perRequest.plain);
  const measuredUs = median(perRequest.measured);
  console.log(`\n${n} x GET ${URL} per round, ${args.rounds} rounds, median of rounds`);
  console.table({
    'baseline: no METRICS_TOKEN': { 'µs/request': Math.round(plainUs) },
    'METRICS_TOKEN set': { 'µs/request': Math.round(measuredUs), 'ratio to baseline': Math.round((measuredUs / plainUs) * 100) / 100 },
  });
  const samples = body.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
  console.log(`scrape: median ${median(scrapes).toFixed(1)} ms, ${Buffer.byteLength(body)} bytes, ${samples} samples`);
} finally {
  await measured.close();
  await plain.close();
}
