import type { EnergyBackfill, SimGateway } from '@lumigrid/gateway-sim';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateways } from '../../db/schema/index.ts';
import { buildGatewayWithDevices, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { DATABASES, signUpByMail } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';

type Rows = Array<Record<string, unknown>>;

/**
 * The simulator's accelerated history through the real broker and ingest path: the server's daily rollups
 * hold what the simulator itself integrated from the same samples, day by day in the gateway's time zone.
 */
describe.each(DATABASES)('energy history backfilled by the simulator on %s', (kind) => {
  let rig: GatewayRig;
  let sim: SimGateway;
  let tenantId: string;
  const rows = async (query: ReturnType<typeof sql>) => ((await rig.h.database.db.execute(query)) as unknown as { rows: Rows }).rows;

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 1 });
    sim = rig.fleet.gateways[0]!;
    const token = await signUpByMail(rig.h, `energy-backfill-${kind}@example.com`);
    await buildGatewayWithDevices(rig.h, token, { mac: sim.mac, name: 'Backfilled floor', place: (d) => d.kind.startsWith('light-') });
    // Both ends read local days in Tokyo: the server from the gateway row, the simulator from its parameters.
    await rig.h.database.db.update(gateways).set({ timezone: 'Asia/Tokyo' }).where(eq(gateways.mac, sim.mac));
    sim.params = { ...sim.params, timezone: 'Asia/Tokyo' };
    const [gateway] = await rows(sql`select tenant_id::text as tenant_id from gateways where mac = ${sim.mac}`);
    tenantId = gateway!.tenant_id as string;
  }, 90_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('rolls the backfilled days up to what the simulator integrated', async () => {
    const outcome: EnergyBackfill = await sim.backfillEnergy({ days: 3, stepMinutes: 15 });
    expect(outcome.samples).toBeGreaterThan(0);
    await poll(
      async () => {
        const [n] = await rows(sql`
          select count(*)::int as n from energy_readings r join devices d on d.id = r.device_id where d.tenant_id = ${tenantId}`);
        return n!.n === outcome.samples;
      },
      'every backfilled sample read',
      { timeoutMs: 30_000 },
    );
    const days = await rows(sql`
      select local_date::text as date, sum(energy_wh)::float8 as energy_wh, sum(saved_wh)::float8 as saved_wh, sum(on_s)::int as on_s
      from energy_map_days where tenant_id = ${tenantId} group by local_date order by local_date`);
    expect(days.map((d) => d.date)).toEqual(outcome.days.map((d) => d.date));
    for (const [i, day] of outcome.days.entries()) {
      const stored = days[i]!;
      // Counters travel rounded to a milliwatt-hour, so a day may differ by that per device.
      expect(Math.abs(Number(stored.energy_wh) - day.energyWh), day.date).toBeLessThan(0.05);
      expect(Math.abs(Number(stored.saved_wh) - day.savedWh), day.date).toBeLessThan(0.05);
      expect(stored.on_s, day.date).toBe(day.onS);
    }
    expect(outcome.days.some((d) => d.energyWh > 0 && d.savedWh > 0)).toBe(true);
  });
});
