import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATS_SERVER } from '../gateway-link/nats-cluster.ts';
import { FAULT_FREE, runClusterFaults, type ClusterFaultFigures } from '../test/cluster-faults.ts';
import { buildServerBundle, removeServerBundle } from '../test/server-process.ts';
import { servicesFor } from '../test/services.ts';

const HAPROXY = '/usr/sbin/haproxy';
/**
 * Asked for by TEST_CLUSTER_FAULTS=1: three minutes and 105 s of CPU on this machine under load, which CI's two
 * cores, over their budget already, do not have room for beside the journeys (docs/operations.md says when to run it).
 */
const ASKED = process.env.TEST_CLUSTER_FAULTS === '1';
if (!ASKED) console.warn('\n!!! the cluster under faults: SKIPPED unless TEST_CLUSTER_FAULTS=1\n');
const SERVICES = ASKED && servicesFor('the cluster under faults', { postgres: true, programs: [HAPROXY, NATS_SERVER] });

/**
 * `npm run cluster-faults` small: three nodes behind HAProxy, the NATS cluster, 12 gateways and 10 commands a
 * second, 4 s phases; a server node and then a broker node killed and restarted. Minutes on a busy machine: it
 * proves the rules hold, and the script measures them at size (docs/operations.md "The cluster under faults").
 */
describe.skipIf(!SERVICES)('the cluster under faults (kill -9 a server node, then a broker node)', () => {
  let figures: ClusterFaultFigures;

  beforeAll(async () => {
    buildServerBundle();
    figures = await runClusterFaults({
      gateways: 12,
      commandsPerSecond: 10,
      phaseSeconds: 4,
      changeEveryMs: 1000,
      databaseUrl: process.env.DATABASE_URL!,
    });
  }, 420_000);

  afterAll(() => removeServerBundle());

  it('loses no command the API acknowledged and runs none twice', () => {
    expect(figures.commands.acknowledged).toBeGreaterThan(0);
    expect(figures.commands).toMatchObject({ acknowledgedNotRun: 0, runMoreThanOnce: 0 });
  });

  it('stores every report of the fault-free periods', () => {
    const faultFree = figures.phases.filter((p) => FAULT_FREE.includes(p.name));
    expect(faultFree.map((p) => p.reports.acknowledged).every((n) => n > 0)).toBe(true);
    expect(faultFree.map((p) => p.reports.lost)).toEqual([0, 0, 0]);
  });

  it('has the client back on the map topic within 10 s of each kill, and both killed nodes serving again', () => {
    expect(figures.kills.map((k) => k.what)).toHaveLength(2);
    expect(figures.kills[0]!.clientDropped).toBe(true);
    for (const kill of figures.kills) expect(kill.backOnTopicMs, kill.what).toBeLessThanOrEqual(10_000);
    expect(figures.rules.filter((r) => !r.held)).toEqual([]);
  });
});
