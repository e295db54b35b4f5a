import { parseStatus, typeCodeOfKind } from '@lumigrid/contract';
import type { DecodedUp, DeviceState, ReportMessage } from '@lumigrid/protocol';
import type { Db } from '../../db/client.ts';
import { createLocalBus } from '../../realtime/realtime-bus.ts';
import { createPlacementIndex, type PlacedDevice } from '../devices/placement-index.ts';
import { createDeviceReportsModule } from './device-reports.module.ts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceReports, deviceStates, gateways, users } from '../../db/schema/index.ts';
import { memoryLogger } from '../../test/gateway-link.fixtures.ts';
import { dimmer, reportRow } from '../../test/device-reports.fixtures.ts';
import { DATABASES, startApp, type Harness } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';
import { ownedReads } from '../../owned-reads.ts';
import { createDeviceReportsRepo, type ChangesResult, type HistoryResult, type ReportRow } from './device-reports.repo.ts';
import { createReportWriter } from './report-writer.ts';

const T0 = Date.parse('2026-11-23T08:00:00Z');
const report = (ts: number, ...devices: DeviceState[]): ReportMessage => ({ ts, full: false, devices });

describe.each(DATABASES)('report writer on %s', (kind) => {
  let h: Harness;
  let gatewayId: bigint;
  beforeAll(async () => {
    h = await startApp(kind);
    const [row] = await h.database.db.insert(gateways).values({ mac: 'A4C138000001' }).returning({ id: gateways.id });
    gatewayId = row!.id;
  });
  afterAll(async () => h.close());

  it('appends every reported state to the history and keeps the last one as the current state', async () => {
    const { logger } = memoryLogger();
    let t = T0;
    const sut = createReportWriter({ repo: createDeviceReportsRepo(h.database.db), logger, now: () => t });
    await sut.accept('A4C138000001', report(T0, dimmer('00124B0001000001', 10), dimmer('00124B0001000002', 20)));
    await sut.accept('A4C138000001', report(T0 + 1, dimmer('00124B0001000001', 30)));
    await sut.flush();
    t += 1000;
    await sut.accept('A4C138000001', report(T0 + 2, dimmer('00124B0001000002', 40)));
    await sut.close();

    const history = await h.database.db
      .select()
      .from(deviceReports)
      .where(eq(deviceReports.gatewayId, gatewayId))
      .orderBy(asc(deviceReports.id));
    expect(history.map((r) => [r.addr, r.state.level, r.reportedAt.getTime()])).toEqual([
      ['00124B0001000001', 10, T0],
      ['00124B0001000002', 20, T0],
      ['00124B0001000001', 30, T0 + 1],
      ['00124B0001000002', 40, T0 + 2],
    ]);
    const states = await h.database.db
      .select()
      .from(deviceStates)
      .where(eq(deviceStates.gatewayId, gatewayId))
      .orderBy(asc(deviceStates.addr));
    expect(states.map((s) => [s.addr, s.state.level, s.kind, s.online, s.fault])).toEqual([
      ['00124B0001000001', 30, 'light-dimmer', true, 0],
      ['00124B0001000002', 40, 'light-dimmer', true, 0],
    ]);
    expect(sut.stats).toMatchObject({ accepted: 4, written: 4, dropped: 0 });
  });

  it('never lets a report received earlier replace a state received later', async () => {
    const repo = createDeviceReportsRepo(h.database.db);
    const row = (level: number, receivedAt: number) => reportRow('A4C138000001', dimmer('00124B0001000009', level), T0, receivedAt);
    expect(await repo.upsertStates([row(50, T0 + 5000)])).toBe(1);
    // A QoS 1 redelivery of an older report, written after the newer one: history, yes; current state, no.
    expect(await repo.appendHistory([row(5, T0 + 1000)])).toEqual({ reports: 1, unknownMacs: [] });
    expect(await repo.upsertStates([row(5, T0 + 1000)])).toBe(0);
    const [state] = await h.database.db.select().from(deviceStates).where(eq(deviceStates.addr, '00124B0001000009'));
    expect(state!.state.level).toBe(50);
  });

  it('keeps every character of a state, a pool gateway without account, and the arrival order in the ids', async () => {
    const [pooled] = await h.database.db.insert(gateways).values({ mac: 'A4C138000002' }).returning({ id: gateways.id });
    const repo = createDeviceReportsRepo(h.database.db);
    // What COPY's text format gives a meaning to (backslash, tab, newline, carriage return, \N) and JSON escapes.
    const odd = { ...dimmer('00124B00010000A1', 1), note: 'a\\b\tc\nd\re \\N "q" \u00e9\u2028' } as DeviceState;
    const row = (mac: string, state: DeviceState) => reportRow(mac, state, T0);
    const rows = [row('A4C138000002', odd), ...many(0xa2, 40).map((d) => row(d.addr.endsWith('A5') ? 'FFFFFF000009' : 'A4C138000002', d))];
    expect(await repo.appendHistory(rows)).toEqual({ reports: 40, unknownMacs: ['FFFFFF000009'] });
    const history = await h.database.db
      .select()
      .from(deviceReports)
      .where(eq(deviceReports.gatewayId, pooled!.id))
      .orderBy(asc(deviceReports.id));
    expect(history.map((r) => r.addr)).toEqual(rows.filter((r) => r.mac === 'A4C138000002').map((r) => r.addr));
    expect(history[0]!.state).toEqual(odd);
    expect(history.every((r) => r.tenantId === null && r.reportedAt.getTime() === T0 && r.receivedAt.getTime() === T0 + 1)).toBe(true);
  });

  it('writes the account the gateway is bound to at each write, and drops only the row the database refuses', async () => {
    const [gw] = await h.database.db.insert(gateways).values({ mac: 'A4C138000003' }).returning({ id: gateways.id });
    const [account] = await h.database.db.select({ id: users.id }).from(users).limit(1);
    const { logger, lines } = memoryLogger();
    const receivedAt = T0 + 5000;
    const sut = createReportWriter({ repo: createDeviceReportsRepo(h.database.db), logger, now: () => receivedAt });
    await sut.accept('A4C138000003', report(T0, dimmer('00B1', 1)));
    await sut.flush();
    await h.database.db.update(gateways).set({ tenantId: account!.id }).where(eq(gateways.id, gw!.id));
    // A fault code beyond smallint: the database refuses that row alone.
    await sut.accept('A4C138000003', report(T0 + 1, dimmer('00B2', 2), { ...dimmer('00B3', 3), fault: 70_000 }, dimmer('00B4', 4)));
    await sut.close();
    const history = await h.database.db
      .select()
      .from(deviceReports)
      .where(eq(deviceReports.gatewayId, gw!.id))
      .orderBy(asc(deviceReports.id));
    expect(history.map((r) => [r.addr, r.tenantId])).toEqual([
      ['00B1', null],
      ['00B2', account!.id],
      ['00B4', account!.id],
    ]);
    expect(sut.stats).toMatchObject({ accepted: 4, written: 3, dropped: 1 });
    expect(lines.some((l) => l.msg === 'device report dropped: the database refused it' && l.addr === '00B3')).toBe(true);
    // A report is a sighting of its gateway.
    const [seen] = await h.database.db.select({ at: gateways.lastSeenAt }).from(gateways).where(eq(gateways.id, gw!.id));
    expect(seen!.at?.getTime()).toBe(receivedAt);
  });

  it('drops and logs the reports of an unknown gateway; keeps those of a gateway whose clock is not set at their arrival time', async () => {
    const { logger, lines } = memoryLogger();
    const sut = createReportWriter({ repo: createDeviceReportsRepo(h.database.db), logger });
    const before = Date.now();
    await sut.accept('FFFFFF000001', report(Date.now(), dimmer('0011', 1)));
    await sut.accept('A4C138000001', report(5000, dimmer('0012', 1)));
    await sut.accept('A4C138000001', report(Date.now() + 400 * 24 * 3600 * 1000, dimmer('0014', 1)));
    await sut.accept('A4C138000001', report(Date.now(), dimmer('0013', 1)));
    await sut.close();
    expect(sut.stats).toMatchObject({ accepted: 4, written: 3, dropped: 1 });
    expect(lines.some((l) => l.msg === 'device report dropped: no gateway with this MAC' && l.mac === 'FFFFFF000001')).toBe(true);
    expect(lines.filter((l) => l.msg.startsWith('device report timestamp is impossible'))).toHaveLength(2);
    for (const addr of ['0012', '0014']) {
      const [state] = await h.database.db.select().from(deviceStates).where(eq(deviceStates.addr, addr));
      expect(state!.reportedAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(state!.reportedAt.getTime()).toBeLessThanOrEqual(Date.now());
    }
    expect(await h.database.db.select().from(deviceStates).where(eq(deviceStates.addr, '0013'))).toHaveLength(1);
  });
});

/** A repo whose history writes the test releases by hand or makes fail; current states are kept in a map. */
function stubRepo() {
  const written: ReportRow[] = [];
  const states = new Map<string, ReportRow>();
  const stateWrites: number[] = [];
  const gates: Array<() => void> = [];
  const stub = {
    written,
    states,
    stateWrites,
    batches: [] as number[],
    hold: false,
    holdStates: false,
    failNext: 0,
    badAddr: undefined as string | undefined,
    get gates() {
      return gates.length;
    },
    /** Lets the history write waiting at the gate go on; the next one waits again. */
    releaseOne() {
      gates.shift()?.();
    },
    release() {
      stub.hold = false;
      stub.holdStates = false;
      while (gates.length) gates.shift()!();
    },
    async upsertStates(rows: readonly ReportRow[]): Promise<number> {
      if (stub.holdStates) await new Promise<void>((resolve) => gates.push(resolve));
      stateWrites.push(rows.length);
      for (const row of rows) states.set(row.addr, row);
      return rows.length;
    },
    async appendHistory(rows: readonly ReportRow[]): Promise<HistoryResult> {
      if (stub.hold) await new Promise<void>((resolve) => gates.push(resolve));
      if (stub.failNext > 0) {
        stub.failNext--;
        throw Object.assign(new Error('connection terminated'), { code: 'ECONNRESET' });
      }
      if (stub.badAddr && rows.some((r) => r.addr === stub.badAddr)) throw Object.assign(new Error('invalid input'), { code: '22P02' });
      stub.batches.push(rows.length);
      written.push(...rows);
      return { reports: rows.length, unknownMacs: [] };
    },
    appendChangedHistory: (): Promise<ChangesResult> => Promise.reject(new Error('these writers keep every state')),
  };
  return stub;
}

const many = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => dimmer((from + i).toString(16).padStart(4, '0').toUpperCase(), 1));

describe('report writer queue', () => {
  it('asks the link to wait while the queue is full and loses nothing', async () => {
    const repo = stubRepo();
    repo.hold = true;
    const sut = createReportWriter({ repo, logger: memoryLogger().logger, maxBatch: 100, maxQueue: 250 });
    const waits: Array<Promise<void> | undefined> = [];
    for (let i = 0; i < 6; i++) waits.push(sut.accept('A4C138000001', report(Date.now(), ...many(i * 100, 100))));
    // The first batch of 100 is being written; 500 wait, so every accept from the third on asks to wait.
    expect(waits.map((w) => w !== undefined)).toEqual([false, false, true, true, true, true]);
    let resumed = false;
    void waits[5]!.then(() => (resumed = true));
    await new Promise((r) => setImmediate(r));
    expect(resumed).toBe(false);
    repo.release();
    await sut.flush();
    expect(resumed).toBe(true);
    expect(repo.written.map((r) => r.addr)).toEqual(many(0, 600).map((d) => d.addr));
    expect(Math.max(...repo.batches)).toBeLessThanOrEqual(100);
    expect(sut.stats).toMatchObject({ accepted: 600, written: 600, dropped: 0 });
  });

  it("writes each device's newest state once while reports come faster than the current states are written", async () => {
    const repo = stubRepo();
    repo.holdStates = true;
    const sut = createReportWriter({ repo, logger: memoryLogger().logger, maxBatch: 2 });
    for (let level = 1; level <= 5; level++)
      await sut.accept('A4C138000001', report(Date.now(), dimmer('0001', level), dimmer('0002', level * 10)));
    await poll(() => repo.written.length === 10, 'the history written');
    repo.release();
    await sut.flush();
    expect(repo.written.map((r) => r.state.level)).toEqual([1, 10, 2, 20, 3, 30, 4, 40, 5, 50]);
    expect([...repo.states.values()].map((r) => [r.addr, r.state.level])).toEqual([
      ['0001', 5],
      ['0002', 50],
    ]);
    // At most the batch that was being written when the burst came, then the newest of each device.
    expect(repo.stateWrites.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(4);
    expect(sut.stats).toMatchObject({ accepted: 10, written: 10, dropped: 0 });
  });

  it('lets the history go first while it has rows waiting, and writes the newest states once it has caught up', async () => {
    const repo = stubRepo();
    repo.hold = true;
    const sut = createReportWriter({ repo, logger: memoryLogger().logger, maxBatch: 2, statesYieldMs: 60_000 });
    for (let level = 1; level <= 5; level++)
      await sut.accept('A4C138000001', report(Date.now(), dimmer('0001', level), dimmer('0002', level * 10)));
    // One history write at a time, each given the time to hand its rows on.
    for (let batch = 1; batch <= 5; batch++) {
      await poll(() => repo.gates === 1, 'the next history write waiting');
      repo.releaseOne();
      await poll(() => repo.written.length === batch * 2, 'the history written');
      await new Promise((r) => setImmediate(r));
    }
    await sut.flush();
    expect(repo.written.map((r) => r.state.level)).toEqual([1, 10, 2, 20, 3, 30, 4, 40, 5, 50]);
    expect([...repo.states.values()].map((r) => [r.addr, r.state.level])).toEqual([
      ['0001', 5],
      ['0002', 50],
    ]);
    // The first batch's states, then the newest of each device once the history's queue was empty.
    expect(repo.stateWrites).toEqual([2, 2]);
  });

  it('keeps retrying while the database refuses writes, in order', async () => {
    const repo = stubRepo();
    repo.failNext = 3;
    const { logger, lines } = memoryLogger();
    const sut = createReportWriter({ repo, logger, retryMs: { min: 1, max: 4 } });
    await sut.accept('A4C138000001', report(Date.now(), ...many(0, 3)));
    await sut.accept('A4C138000001', report(Date.now(), ...many(3, 3)));
    await sut.flush();
    expect(repo.written.map((r) => r.addr)).toEqual(many(0, 6).map((d) => d.addr));
    expect(sut.stats).toMatchObject({ written: 6, dropped: 0, retries: 3 });
    expect(lines.filter((l) => l.msg === 'device report not written yet, retrying')).toHaveLength(3);
  });

  it('drops only the row the database refuses as data', async () => {
    const repo = stubRepo();
    repo.badAddr = '0005';
    const { logger, lines } = memoryLogger();
    const sut = createReportWriter({ repo, logger });
    await sut.accept('A4C138000001', report(Date.now(), ...many(0, 9)));
    await sut.flush();
    expect(repo.written.map((r) => r.addr)).toEqual(
      many(0, 9)
        .filter((d) => d.addr !== '0005')
        .map((d) => d.addr),
    );
    expect(sut.stats).toMatchObject({ written: 8, dropped: 1 });
    expect(lines.some((l) => l.msg === 'device report dropped: the database refused it' && l.addr === '0005')).toBe(true);
  });

  it('gives up on what the database never takes once close() has waited long enough', async () => {
    const repo = stubRepo();
    repo.failNext = Number.POSITIVE_INFINITY;
    const { logger, lines } = memoryLogger();
    const sut = createReportWriter({ repo, logger, retryMs: { min: 5, max: 5 }, closeTimeoutMs: 30 });
    await sut.accept('A4C138000001', report(Date.now(), ...many(0, 2)));
    await sut.close();
    expect(sut.stats).toMatchObject({ written: 0, dropped: 2 });
    expect(lines.some((l) => l.msg.startsWith('device report lost'))).toBe(true);
  });
});

describe('reports on their way to the map topics', () => {
  const mac = 'A4C138000001';
  const placed = (addr: string, id: number): PlacedDevice => ({
    id: BigInt(id),
    addr,
    name: `Light ${id}`,
    type: typeCodeOfKind('light-dimmer')!,
    status: '',
    typeStatus: 0,
    mapId: 7n,
    x: 0.5,
    y: 0.5,
  });

  /** The ingest module on a link the test feeds, with a slow first read of the placements and a stub database. */
  function rig(repo: ReturnType<typeof stubRepo>) {
    let listener: ((m: DecodedUp) => unknown) | undefined;
    let releaseLoad: (() => void) | undefined;
    const heard: Array<{ destination: string; id: string; level: number | undefined }> = [];
    const stored: Array<{ destination: string; ids: string[]; heardBefore: number }> = [];
    const placements = createPlacementIndex({
      load: async () => {
        await new Promise<void>((resolve) => (releaseLoad = resolve));
        return { gatewayId: 1n, devices: [placed('0001', 11), placed('0002', 12)] };
      },
      publish: (destination, message) => {
        if ('stored' in message) return void stored.push({ destination, ids: message.stored, heardBefore: heard.length });
        if (!('id' in message)) return;
        const status = parseStatus(message.type, message.status);
        heard.push({ destination, id: message.id, level: status.ok && 'level' in status.value ? status.value.level : undefined });
      },
      bus: createLocalBus(),
      logger: memoryLogger().logger,
    });
    const module = createDeviceReportsModule({
      // Only reports are sent here: the telemetry writer never touches its database.
      db: {} as Db,
      reads: ownedReads,
      link: { onUp: (l) => ((listener = l), () => undefined) },
      onReport: placements.report,
      onStored: placements.stored,
      reports: repo,
      options: { retryMs: { min: 1, max: 2 } },
      logger: memoryLogger().logger,
    });
    const send = (...devices: DeviceState[]) => listener!({ channel: 'report', mac, message: report(Date.now(), ...devices) } as DecodedUp);
    return { module, placements, heard, stored, send, releaseLoad: () => releaseLoad!() };
  }

  it('tells the map every reported state in order, before it is written, while the database refuses and is retried', async () => {
    const repo = stubRepo();
    repo.hold = true;
    repo.failNext = 3;
    const { module, placements, heard, stored, send, releaseLoad } = rig(repo);
    send(dimmer('0001', 10), dimmer('0002', 20));
    send(dimmer('0001', 30));
    send(dimmer('0003', 40), dimmer('0001', 50));
    // The placements are still being read: nothing is out of order, nothing is lost.
    await new Promise((r) => setImmediate(r));
    expect(heard).toEqual([]);
    releaseLoad();
    await placements.settled();
    send(dimmer('0002', 60));
    const levels = (id: string) => heard.filter((m) => m.id === id).map((m) => m.level);
    expect(heard.every((m) => m.destination === '/topic/map/7')).toBe(true);
    expect(levels('11')).toEqual([10, 30, 50]);
    expect(levels('12')).toEqual([20, 60]);
    // Every one of them was heard while the database had written nothing.
    expect(repo.written).toEqual([]);
    repo.release();
    await module.reportWriter.flush();
    expect(repo.written.map((r) => `${r.addr}:${r.state.level}`)).toEqual([
      '0001:10',
      '0002:20',
      '0001:30',
      '0003:40',
      '0001:50',
      '0002:60',
    ]);
    expect(module.reportWriter.stats).toMatchObject({ written: 6, dropped: 0, retries: 3 });
    // Nothing was said stored while the database held; then the map hears it, after every marker, of placed devices only.
    await placements.settled();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((m) => m.destination === '/topic/map/7' && m.heardBefore === heard.length)).toBe(true);
    expect(new Set(stored.flatMap((m) => m.ids))).toEqual(new Set(['11', '12']));
  });

  it('tells the map a state is stored once the current state is written, not the history', async () => {
    const repo = stubRepo();
    const { module, placements, stored, send, releaseLoad } = rig(repo);
    send(dimmer('0001', 10));
    await new Promise((r) => setImmediate(r));
    releaseLoad();
    await placements.settled();
    await module.reportWriter.flush();
    await placements.settled();
    expect(stored.map((m) => m.ids)).toEqual([['11']]);
    repo.holdStates = true;
    send(dimmer('0002', 20));
    await placements.settled();
    await poll(() => repo.written.some((r) => r.addr === '0002'), 'the history written');
    expect(stored.map((m) => m.ids)).toEqual([['11']]);
    repo.release();
    await module.reportWriter.flush();
    await placements.settled();
    expect(stored.map((m) => m.ids)).toEqual([['11'], ['12']]);
  });
});
