import type { TelemetryMessage, TelemetrySample } from '@lumigrid/protocol';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTelemetry, gateways } from '../../db/schema/index.ts';
import { memoryLogger } from '../../test/gateway-link.fixtures.ts';
import { DATABASES, startApp, type Harness } from '../../test/harness.ts';
import { ownedReads } from '../../owned-reads.ts';
import { createTelemetryRepo, type TelemetryRow } from './telemetry.repo.ts';
import { createTelemetryWriter } from './telemetry-writer.ts';

const T0 = Date.parse('2026-11-23T08:00:00Z');
const MAC = 'A4C138000071';
const message = (ts: number, ...samples: TelemetrySample[]): TelemetryMessage => ({ ts, samples });

/** A row as the repo takes it: nothing measured but what the test names, reported and received at T0. */
const telemetryRow = (row: Pick<TelemetryRow, 'mac' | 'addr'> & Partial<TelemetryRow>): TelemetryRow => ({
  power: null,
  voltage: null,
  current: null,
  energyWh: null,
  battery: null,
  temperature: null,
  lux: null,
  reportedAt: new Date(T0).toISOString(),
  receivedAt: new Date(T0).toISOString(),
  ...row,
});

describe.each(DATABASES)('telemetry writer on %s', (kind) => {
  let h: Harness;
  let gatewayId: bigint;
  beforeAll(async () => {
    h = await startApp(kind);
    const [row] = await h.database.db.insert(gateways).values({ mac: MAC }).returning({ id: gateways.id });
    gatewayId = row!.id;
  });
  afterAll(async () => h.close());

  const stored = () =>
    h.database.db.select().from(deviceTelemetry).where(eq(deviceTelemetry.gatewayId, gatewayId)).orderBy(asc(deviceTelemetry.addr));

  it('keeps the last sample of every device, with only what the device measures', async () => {
    const { logger } = memoryLogger();
    let t = T0;
    const sut = createTelemetryWriter({ repo: createTelemetryRepo(h.database.db, ownedReads), logger, now: () => t });
    await sut.accept(
      MAC,
      message(
        T0,
        { addr: '00124B0007000001', power: 10, voltage: 230, current: 0.043, energyWh: 100 },
        { addr: '00124B0007000002', lux: 320 },
      ),
    );
    await sut.accept(MAC, message(T0 + 1, { addr: '00124B0007000001', power: 20.5, voltage: 229.5, current: 0.089, energyWh: 100.25 }));
    await sut.flush();
    t += 1000;
    await sut.accept(MAC, message(T0 + 2, { addr: '00124B0007000002', lux: 410, battery: 87, temperature: 21.5 }));
    await sut.close();

    const rows = await stored();
    expect(
      rows.map((r) => [
        r.addr,
        r.power,
        r.voltage,
        r.current === null ? null : Number(r.current.toFixed(3)),
        r.energyWh,
        r.lux,
        r.battery,
        r.temperature,
        r.reportedAt.getTime(),
      ]),
    ).toEqual([
      ['00124B0007000001', 20.5, 229.5, 0.089, 100.25, null, null, null, T0 + 1],
      ['00124B0007000002', null, null, null, null, 410, 87, 21.5, T0 + 2],
    ]);
    expect(sut.stats).toMatchObject({ accepted: 4, written: 4, dropped: 0 });
  });

  it('never lets a sample received earlier replace one received later', async () => {
    const repo = createTelemetryRepo(h.database.db, ownedReads);
    const row = (power: number, receivedAt: number) =>
      telemetryRow({ mac: MAC, addr: '00124B0007000009', power, voltage: 230, receivedAt: new Date(receivedAt).toISOString() });
    expect(await repo.write([row(50, T0 + 5000)])).toEqual({ written: 1, unknown: 0, unknownMacs: [] });
    // A QoS 1 redelivery of an older sample, written after the newer one.
    expect(await repo.write([row(5, T0 + 1000)])).toEqual({ written: 0, unknown: 0, unknownMacs: [] });
    const [kept] = (await stored()).filter((r) => r.addr === '00124B0007000009');
    expect(kept!.power).toBe(50);
  });

  it('drops and logs the telemetry of an unknown gateway; keeps a sample from a gateway whose clock is not set at its arrival time', async () => {
    const { logger, lines } = memoryLogger();
    const now = T0 + 3_600_000;
    const sut = createTelemetryWriter({ repo: createTelemetryRepo(h.database.db, ownedReads), logger, now: () => now });
    await sut.accept('A4C1380000FF', message(T0, { addr: '00124B0007000010', power: 1 }));
    await sut.accept('A4C1380000FF', message(T0, { addr: '00124B0007000011', power: 1 }));
    await sut.accept(MAC, message(1000, { addr: '00124B0007000012', power: 3 }));
    await sut.close();
    expect(sut.stats).toMatchObject({ accepted: 3, written: 1, dropped: 2 });
    const unknownLogs = lines.filter((l) => l.msg === 'telemetry dropped: no gateway with this MAC');
    expect(unknownLogs).toHaveLength(1);
    expect(lines.some((l) => String(l.msg).startsWith('telemetry timestamp is impossible'))).toBe(true);
    const [late] = (await stored()).filter((r) => r.addr === '00124B0007000012');
    expect(late!.reportedAt.getTime()).toBe(now);
    expect(late!.receivedAt.getTime()).toBe(now);
  });

  it('goes away with its gateway', async () => {
    const [other] = await h.database.db.insert(gateways).values({ mac: 'A4C138000072' }).returning({ id: gateways.id });
    await createTelemetryRepo(h.database.db, ownedReads).write([telemetryRow({ mac: 'A4C138000072', addr: '00124B0007000020', power: 1 })]);
    expect(await h.database.db.select().from(deviceTelemetry).where(eq(deviceTelemetry.gatewayId, other!.id))).toHaveLength(1);
    await h.database.db.delete(gateways).where(eq(gateways.id, other!.id));
    expect(await h.database.db.select().from(deviceTelemetry).where(eq(deviceTelemetry.gatewayId, other!.id))).toHaveLength(0);
  });
});
