import type { DeviceState, ReportMessage } from '@lumigrid/protocol';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.ts';
import { deviceReports, deviceStates, gateways, users } from '../../db/schema/index.ts';
import { freshPglite, freshPostgres } from '../../test/database-templates.ts';
import { memoryLogger } from '../../test/gateway-link.fixtures.ts';
import { dimmer, reportRow } from '../../test/device-reports.fixtures.ts';
import { DATABASES, startApp, TestClock, type Harness } from '../../test/harness.ts';
import { createDeviceReportsRepo } from './device-reports.repo.ts';
import { createReportWriter } from './report-writer.ts';

const MINUTE = 60_000;
const HEARTBEAT_MS = 15 * MINUTE;
const report = (ts: number, ...devices: DeviceState[]): ReportMessage => ({ ts, full: true, devices });

/**
 * Change-only history against a real database: the report writer with the app's test clock as its server clock,
 * deciding against the database's record (several nodes) or its own memory (PGlite, the database's only writer).
 */
const DECIDERS = DATABASES.flatMap((kind) => [[kind, 'in the database'] as const, [kind, 'in this process'] as const]);
describe.each(DECIDERS)('change-only device history on %s, decided %s', (kind, where) => {
  const historyInProcess = where === 'in this process';
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
        historyInProcess,
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

    // Against the database's record a restarted writer writes no repeat, only a change; a process's memory starts
    // empty, so there each device's first state after a start is written.
    const restarted = writerOn(clock);
    await restarted.accept(mac, report(clock.now().getTime(), dimmer('00C1', 30), dimmer('00C2', 21)));
    await restarted.close();
    expect((await history()).slice(6).map((r) => r[0])).toEqual(historyInProcess ? ['00C1', '00C2'] : ['00C2']);
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
      historyInProcess,
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

/**
 * Two server nodes writing one gateway's reports into one database: on PostgreSQL two connection pools (as two
 * processes have), on PGlite two report writers on the one database. Nothing but the database is shared.
 */
describe.each(DATABASES)('change-only device history written by two nodes on %s', (kind) => {
  const mac = 'A4C1380C0010';
  let nodes: Database[] = [];
  let drop: () => Promise<void> = async () => undefined;
  let gatewayId: bigint;
  beforeAll(async () => {
    if (kind === 'pglite') {
      const one = await freshPglite();
      nodes = [one, one];
      drop = () => one.close();
    } else {
      const target = await freshPostgres();
      nodes = [await openDatabase({ url: target.url }), await openDatabase({ url: target.url })];
      drop = async () => {
        for (const node of nodes) await node.close();
        await target.drop();
      };
    }
    const [row] = await nodes[0]!.db.insert(gateways).values({ mac }).returning({ id: gateways.id });
    gatewayId = row!.id;
  });
  afterAll(async () => drop());

  const clock = new TestClock();
  const writerOn = (node: Database) =>
    createReportWriter({
      repo: createDeviceReportsRepo(node.db),
      logger: memoryLogger().logger,
      now: () => clock.now().getTime(),
      historyHeartbeatMs: HEARTBEAT_MS,
    });
  const history = async (addr: string) =>
    (
      await nodes[0]!.db
        .select()
        .from(deviceReports)
        .where(and(eq(deviceReports.gatewayId, gatewayId), eq(deviceReports.addr, addr)))
        .orderBy(asc(deviceReports.id))
    ).map((r) => [r.state.level, r.receivedAt.getTime()]);

  it("compares a state with the device's last history row, whichever node wrote it", async () => {
    const [a, b] = [writerOn(nodes[0]!), writerOn(nodes[1]!)];
    const send = async (node: typeof a, level: number) => {
      await node.accept(mac, report(clock.now().getTime(), dimmer('00F1', level)));
      await node.flush();
    };
    const t0 = clock.now().getTime();
    await send(b, 10);
    clock.advance(MINUTE);
    await send(a, 20);
    // Back to the state B wrote last, but A wrote another since: a change.
    clock.advance(MINUTE);
    await send(b, 10);
    // The state B just wrote, now through A, within the heartbeat: no row.
    clock.advance(MINUTE);
    await send(a, 10);
    expect(await history('00F1')).toEqual([
      [10, t0],
      [20, t0 + MINUTE],
      [10, t0 + 2 * MINUTE],
    ]);
    expect([a.history, b.history]).toEqual([
      { appended: 1, unchanged: 1 },
      { appended: 2, unchanged: 0 },
    ]);
    // The heartbeat counts from the last row, whichever node wrote it.
    clock.advance(HEARTBEAT_MS - MINUTE);
    await send(b, 10);
    expect((await history('00F1')).slice(3)).toEqual([[10, t0 + 2 * MINUTE + HEARTBEAT_MS]]);
    await Promise.all([a.close(), b.close()]);
  });

  it('lets only one of two nodes write a change both are told at once', async () => {
    const [a, b] = [writerOn(nodes[0]!), writerOn(nodes[1]!)];
    const levels = Array.from({ length: 20 }, (_, i) => i + 1);
    for (const level of levels) {
      clock.advance(1000);
      // Two devices in opposite orders, so the nodes' locks cross if they are not taken in one order.
      const devices = [dimmer('00F2', level), dimmer('00F3', level)];
      await Promise.all([
        a.accept(mac, report(clock.now().getTime(), ...devices)),
        b.accept(mac, report(clock.now().getTime(), ...devices.reverse())),
      ]);
      await Promise.all([a.flush(), b.flush()]);
    }
    expect((await history('00F2')).map(([level]) => level)).toEqual(levels);
    expect((await history('00F3')).map(([level]) => level)).toEqual(levels);
    expect(a.history.appended + b.history.appended).toBe(2 * levels.length);
    expect(a.history.unchanged + b.history.unchanged).toBe(2 * levels.length);
    await Promise.all([a.close(), b.close()]);
  });
});
