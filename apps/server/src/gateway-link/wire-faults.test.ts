import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodeFor } from './command-bus.ts';
import { freshPostgres } from '../test/database-templates.ts';
import { lossyLinkSupport, WIRE_FAULTS } from '../test/lossy-link.fixtures.ts';
import { buildServerBundle, removeServerBundle } from '../test/server-process.ts';
import { runWireFaults, type WireFaultFigures } from '../test/wire-faults.ts';

const SUPPORT = lossyLinkSupport();
if (SUPPORT.kind === 'none') {
  const text = `gateways behind faulty links: SKIPPED because ${SUPPORT.reason}`;
  if (process.env.REQUIRE_TEST_SERVICES) throw new Error(`${text} (REQUIRE_TEST_SERVICES is set)`);
  console.warn(`\n!!! ${text}\n`);
}

/**
 * Three gateways, each in a network namespace behind a link with the faults of `tc netem delay 200ms 50ms loss 5%
 * reorder 25% 50%`, the built server on PostgreSQL (DATABASE_URL) or PGlite, and identify commands through the
 * API meanwhile. Small on purpose (a few seconds of faults): it proves the platform agrees with its gateways, and
 * `npm run netem-faults` measures it at size (docs/operations.md "Faults on the wire").
 */
describe.skipIf(SUPPORT.kind === 'none')('gateways behind lossy, slow, reordering links', () => {
  let figures: WireFaultFigures;
  let database: Awaited<ReturnType<typeof freshPostgres>> | undefined;

  beforeAll(async () => {
    buildServerBundle();
    // A copy of the run's migrated template when PostgreSQL is there; PGlite migrates a folder of its own.
    database = process.env.DATABASE_URL ? await freshPostgres() : undefined;
    figures = await runWireFaults({
      links: 3,
      gatewaysPerLink: 1,
      commandsPerSecond: 5,
      faultSeconds: 8,
      changeEveryMs: 1000,
      faults: WIRE_FAULTS,
      runDatabaseUrl: database?.url,
    });
  }, 120_000);

  afterAll(async () => {
    removeServerBundle();
    await database?.drop();
  });

  it('answers the commands, each carried out once; only a timeout may fail one', () => {
    expect(figures.commands.sent).toBe(40);
    expect(figures.commands.succeeded).toBeGreaterThan(0);
    const timedOut = String(errorCodeFor('gateway.identify', 'timed_out'));
    expect(Object.keys(figures.commands.failures).filter((code) => code !== timedOut)).toEqual([]);
    expect(figures.executions.runMoreThanOnce).toBe(0);
    expect(figures.executions.byName['gateway.identify']).toBeGreaterThanOrEqual(figures.commands.succeeded);
  });

  it('stores every change report the broker acknowledged, once', () => {
    expect(figures.reports.acknowledged).toBeGreaterThan(0);
    expect(figures.reports).toMatchObject({ lost: 0, duplicated: 0 });
  });

  it('never shows a gateway offline while its link is only lossy, and agrees on every device once the faults go', () => {
    expect(figures.presence.offlineChanges).toBe(0);
    expect(figures.statesDiffering).toBe(0);
  });
});
