import type { GatewayDevice } from '@lumigrid/contract';
import type { SimGateway } from '@lumigrid/gateway-sim';
import { encodeUp, upTopic, type TelemetryMessage } from '@lumigrid/protocol';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gateways } from '../../db/schema/index.ts';
import { rawClient, runPrefix } from '../../test/gateway-link.fixtures.ts';
import { buildGatewayWithDevices, defaultMapId, startAppWithGateway } from '../../test/gateways.fixtures.ts';
import { DATABASES, signUpByMail, type Harness } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';

type Rows = Array<Record<string, unknown>>;

/**
 * up/telemetry over the real broker and ingest path (gateway link, batch writer) reaches the energy history
 * and rollups: a duplicate is counted once, a gap is spread, a reset counts from 0, and the local days follow
 * the gateway's time zone.
 */
describe.each(DATABASES)('energy from up/telemetry through the broker on %s', (kind) => {
  let h: Harness;
  let sim: SimGateway;
  let light: GatewayDevice;
  const mac = `A4C1${runPrefix()}E1`;
  const password = `pw-${mac}`;
  const rows = async (query: ReturnType<typeof sql>) => ((await h.database.db.execute(query)) as unknown as { rows: Rows }).rows;

  beforeAll(async () => {
    ({ h, sim } = await startAppWithGateway(kind, { mac, password }));
    const token = await signUpByMail(h, `energy-ingest-${kind}@example.com`);
    const mapId = await defaultMapId(h, token);
    const built = await buildGatewayWithDevices(h, token, { mac, mapId, name: 'Metered floor', place: (d) => d.kind === 'light-dimmer' });
    light = built.placed[0]!;
    await h.database.db.update(gateways).set({ timezone: 'Asia/Tokyo' }).where(eq(gateways.mac, mac));
  }, 90_000);
  afterAll(async () => {
    await sim?.stop();
    await h?.close();
  });

  it('rolls counters up per hour and per local day, once each', async () => {
    const { client, error } = await rawClient(`mqtt://127.0.0.1:${h.app.gatewayLink!.brokerPort}`, {
      clientId: `${mac}-energy`,
      username: mac,
      password,
    });
    expect(error).toBeUndefined();
    const send = (iso: string, energyWh: number, power: number) => {
      const message: TelemetryMessage = { ts: Date.parse(iso), samples: [{ addr: light.addr, energyWh, power }] };
      return client.publishAsync(upTopic(mac, 'telemetry'), encodeUp('telemetry', message), { qos: 1 });
    };
    const told = vi.spyOn(h.app.webhooks.service, 'emit');
    // 23:00-00:00 in Tokyo, a redelivered message, a three-hour gap, then a reset counter.
    await send('2026-11-20T14:00:00Z', 1000, 20);
    await send('2026-11-20T14:30:00Z', 1010, 20);
    await send('2026-11-20T14:30:00Z', 1010, 20);
    await send('2026-11-20T15:00:00Z', 1030, 20);
    await send('2026-11-20T18:00:00Z', 1090, 20);
    await send('2026-11-20T18:15:00Z', 5, 20);
    await client.endAsync();

    const [device] = await rows(sql`select id from devices where addr = ${light.addr}`);
    await poll(
      async () => (await rows(sql`select 1 from energy_device_state where device_id = ${device!.id} and counter_wh = 5`)).length === 1,
      'the last reading taken',
      { timeoutMs: 10_000 },
    );
    const [history] = await rows(sql`select count(*)::int as n from energy_readings where device_id = ${device!.id}`);
    expect(history!.n).toBe(5);
    const hours = await rows(sql`
      select to_char(hour at time zone 'UTC', 'HH24') as hour, energy_wh from energy_device_hours
      where device_id = ${device!.id} order by hour`);
    expect(hours.map((r) => [r.hour, Number(r.energy_wh)])).toEqual([
      ['14', 30],
      ['15', 20],
      ['16', 20],
      ['17', 20],
      ['18', 5],
    ]);
    const days = await rows(sql`
      select local_date::text as local_date, energy_wh from energy_map_days
      where map_id = (select map_id from devices where id = ${device!.id})
      order by local_date`);
    expect(days.map((r) => [r.local_date, Number(r.energy_wh)])).toEqual([
      ['2026-11-20', 30],
      ['2026-11-21', 65],
    ]);
    // The first reading of the 21st closed the 20th, told to webhooks once.
    const closed = told.mock.calls.flatMap(([source]) =>
      typeof source === 'function' || source.kind !== 'energy.dayClosed' ? [] : [source],
    );
    expect(closed.map((e) => [e.data.date, e.data.energyWh])).toEqual([['2026-11-20', 30]]);
    told.mockRestore();
  });
});
