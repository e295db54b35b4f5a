import type { DeviceState, ReportMessage } from '@lumigrid/protocol';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceReports, deviceStates, gateways, users } from '../../db/schema/index.ts';
import { memoryLogger } from '../../test/gateway-link.fixtures.ts';
import { dimmer, reportRow } from '../../test/device-reports.fixtures.ts';
import { DATABASES, startApp, TestClock, type Harness } from '../../test/harness.ts';
import { createDeviceReportsRepo } from './device-reports.repo.ts';
import { createReportWriter } from './report-writer.ts';

const MINUTE = 60_000;
const HEARTBEAT_MS = 15 * MINUTE;
const report = (ts: number, ...devices: DeviceState[]): ReportMessage => ({ ts, full: true, devices });

/** Change-only history against a real database: the report writer with the app's test clock as its server clock. */
describe.each(DATABASES)('change-only device history on %s', (kind) => {
  let h: Harness;
  const mac = 'A4C1380C0001';
  let gatewayId: bigint;
  beforeAll(async () => {
    h = await startApp(kind);
    const [row] = await h.database.db.insert(gateways).values({ mac }).returning({ id: gateways.id });
    gatewayId = row!.id;
  });
  afterAll(async () => h?.close());

  const history = async () =>
    (await h.database.db.select().from(deviceReports).where(eq(deviceReports.gatewayId, gatewayId)).orderBy(asc(deviceReports.id))).map(
      (r) => [r.addr, r.state.level, r.receivedAt.getTime()],
    );
  const lastSeen = async (addr: string) =>
    (await h.database.db.select().from(deviceStates).where(eq(deviceStates.addr, addr)))[0]!.receivedAt.getTime();

  it('adds a row for a change and for a heartbeat only, and still moves the current state on every report', async () => {
    const clock = new TestClock();
    const t0 = clock.now().getTime();
    const writerOn = (c: TestClock) =>
      createReportWriter({
        repo: createDeviceReportsRepo(h.database.db),
        logger: memoryLogger().logger,
        now: () => c.now().getTime(),
        historyHeartbeatMs: HEARTBEAT_MS,
      });
    const sut = writerOn(clock);
    const send = async (...devices: DeviceState[]) => {
      await sut.accept(mac, report(clock.now().getTime(), ...devices));
      await sut.flush();
    };

    await send(dimmer('00C1', 10), dimmer('00C2', 20));
    expect(await history()).toEqual([
      ['00C1', 10, t0],
      ['00C2', 20, t0],
    ]);

    // Unchanged, a minute on: no history row, but the current state has seen it.
    clock.advance(MINUTE);
    await send(dimmer('00C1', 10), dimmer('00C2', 20));
    expect(await history()).toHaveLength(2);
    expect(await lastSeen('00C1')).toBe(t0 + MINUTE);

    // The same state with its fields in another order is the same state.
    clock.advance(MINUTE);
    const reordered = Object.fromEntries(Object.entries(dimmer('00C2', 20)).reverse()) as DeviceState;
    await send(dimmer('00C1', 30), reordered);
    expect(await history()).toEqual([
      ['00C1', 10, t0],
      ['00C2', 20, t0],
      ['00C1', 30, t0 + 2 * MINUTE],
    ]);

    // Just short of the heartbeat for 00C2 nothing more; at it, one row for 00C2 (00C1 changed later, so it waits).
    clock.advance(HEARTBEAT_MS - 2 * MINUTE - 1);
    await send(dimmer('00C1', 30), dimmer('00C2', 20));
    expect(await history()).toHaveLength(3);
    clock.advance(1);
    await send(dimmer('00C1', 30), dimmer('00C2', 20));
    expect((await history()).slice(3)).toEqual([['00C2', 20, t0 + HEARTBEAT_MS]]);

    // Several reports of one device in one batch: its changes are kept, its repeats are not.
    clock.advance(MINUTE);
    await sut.accept(mac, report(clock.now().getTime(), dimmer('00C1', 30), dimmer('00C1', 40), dimmer('00C1', 40), dimmer('00C1', 30)));
    await sut.flush();
    expect((await history()).slice(4).map((r) => r[1])).toEqual([40, 30]);
    expect(sut.history).toEqual({ appended: 6, unchanged: 8 });
    expect(sut.stats).toMatchObject({ accepted: 14, written: 14, dropped: 0 });
    await sut.close();

    // After a restart the memory is empty: the first report of every device is written.
    const restarted = writerOn(clock);
    await restarted.accept(mac, report(clock.now().getTime(), dimmer('00C1', 30), dimmer('00C2', 20)));
    await restarted.close();
    expect((await history()).slice(6).map((r) => r[0])).toEqual(['00C1', '00C2']);
  });

  it('gives a chart the state in force at the start of its range, however old its row', async () => {
    const repo = createDeviceReportsRepo(h.database.db);
    const [account] = await h.database.db.select({ id: users.id }).from(users).limit(1);
    const [gw] = await h.database.db.insert(gateways).values({ mac: 'A4C1380C0003', tenantId: account!.id }).returning({ id: gateways.id });
    const t0 = new TestClock().now().getTime();
    const row = (level: number, at: number) => reportRow('A4C1380C0003', dimmer('00E1', level), at, at);
    await repo.appendHistory([row(10, t0), row(20, t0 + 3 * 3_600_000), row(30, t0 + 9 * 3_600_000)]);
    const chart = await repo.historyBetween({
      tenantId: account!.id,
      gatewayId: gw!.id,
      addr: '00E1',
      from: new Date(t0 + 5 * 3_600_000),
      to: new Date(t0 + 10 * 3_600_000),
      limit: 100,
    });
    expect(chart.map((r) => r.state.level)).toEqual([20, 30]);
  });

  it('does not remember the states of a gateway the database does not know', async () => {
    const sut = createReportWriter({
      repo: createDeviceReportsRepo(h.database.db),
      logger: memoryLogger().logger,
      historyHeartbeatMs: HEARTBEAT_MS,
    });
    await sut.accept('FFFFFF0C0002', report(Date.now(), dimmer('00D1', 1)));
    await sut.flush();
    // Provisioned now: the same state is its first history row, not a repeat.
    const [gw] = await h.database.db.insert(gateways).values({ mac: 'FFFFFF0C0002' }).returning({ id: gateways.id });
    await sut.accept('FFFFFF0C0002', report(Date.now(), dimmer('00D1', 1)));
    await sut.close();
    expect(await h.database.db.select().from(deviceReports).where(eq(deviceReports.gatewayId, gw!.id))).toHaveLength(1);
    expect(sut.stats).toMatchObject({ accepted: 2, written: 1, dropped: 1 });
  });
});
