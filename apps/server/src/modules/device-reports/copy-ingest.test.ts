import type { DeviceState, ReportMessage } from '@lumigrid/protocol';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceReports, deviceStates, gateways, users } from '../../db/schema/index.ts';
import { createLocalBus } from '../../realtime/realtime-bus.ts';
import { memoryLogger } from '../../test/gateway-link.fixtures.ts';
import { dimmer, reportRow } from '../../test/device-reports.fixtures.ts';
import { DATABASES, startApp, type Harness } from '../../test/harness.ts';
import { createDeviceReportsRepo, gatewaysByMacAnyTenant, type HistoryResult, type ReportRow } from './device-reports.repo.ts';
import { createGatewayDirectory } from './gateway-directory.ts';
import { createReportWriter } from './report-writer.ts';

const T0 = Date.parse('2026-11-23T08:00:00Z');
const report = (ts: number, ...devices: DeviceState[]): ReportMessage => ({ ts, full: false, devices });
const row = (mac: string, state: DeviceState, at = T0) => reportRow(mac, state, at);
// Ids past 2^53: they travel as text, never as JavaScript numbers.
const BIG_GATEWAY_ID = 9_007_199_254_740_995n;

describe.each(DATABASES)('history rows written through COPY on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApp(kind);
  });
  afterAll(async () => h.close());

  const historyOf = (gatewayId: bigint) =>
    h.database.db.select().from(deviceReports).where(eq(deviceReports.gatewayId, gatewayId)).orderBy(asc(deviceReports.id));

  it('reads a batch back complete and equal: nulls, control characters, unicode names and large numbers', async () => {
    await h.database.db.execute(sql`insert into gateways (id, mac) overriding system value values (${BIG_GATEWAY_ID}, 'A4C1380000B1')`);
    const repo = createDeviceReportsRepo(h.database.db);
    const controls = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('') + '\u007f';
    const states: DeviceState[] = [
      { ...dimmer('00C1', 1), name: `${controls} \\N \\. \\\\ "q"` } as DeviceState,
      { ...dimmer('00C2', 2), name: '客厅灯 · 客廳燈 · リビング照明 · 💡 e\u0301 \u2028\u2029' } as DeviceState,
      {
        ...dimmer('00C3', 3),
        counter: Number.MAX_SAFE_INTEGER,
        tiny: 5e-324,
        huge: 1.7976931348623157e308,
        negative: -2147483649,
      } as DeviceState,
      { ...dimmer('00C4', 4), note: null, nested: { list: [null, true, 0, '', '\t'] } } as unknown as DeviceState,
      { ...dimmer('00C5', 0), online: false, fault: 32_767 },
    ];
    // Text columns take what the format escapes, as the gateway sent it.
    const rows = [
      ...states.map((s) => row('A4C1380000B1', s)),
      { ...row('A4C1380000B1', dimmer('00C6', 6)), addr: 'a\tb\nc\rd\\e \\N', kind: '灯\u0001' },
    ];
    expect(await repo.appendHistory(rows)).toEqual({ reports: rows.length, unknownMacs: [] });
    const history = await historyOf(BIG_GATEWAY_ID);
    expect(history.map((r) => ({ addr: r.addr, kind: r.kind, online: r.online, fault: r.fault, state: r.state }))).toEqual(
      rows.map((r) => ({ addr: r.addr, kind: r.kind, online: r.online, fault: r.fault, state: r.state })),
    );
    // A gateway in the pool: the account is null, not the text "null".
    expect(history.every((r) => r.tenantId === null && r.gatewayId === BIG_GATEWAY_ID)).toBe(true);
    expect(history.every((r) => r.reportedAt.getTime() === T0 && r.receivedAt.getTime() === T0 + 1)).toBe(true);
    expect(await repo.upsertStates(rows)).toBe(rows.length);
    const current = await h.database.db.select().from(deviceStates).where(eq(deviceStates.gatewayId, BIG_GATEWAY_ID));
    expect(new Map(current.map((s) => [s.addr, s.state]))).toEqual(new Map(rows.map((r) => [r.addr, r.state])));
  });

  it('leaves nothing of a batch the database refuses, and the writer drops only the refused row', async () => {
    const [gw] = await h.database.db.insert(gateways).values({ mac: 'A4C1380000B2' }).returning({ id: gateways.id });
    const repo = createDeviceReportsRepo(h.database.db);
    // A fault code beyond smallint, in the middle of the batch: the statement fails whole.
    const rows = [
      row('A4C1380000B2', dimmer('00D1', 1)),
      row('A4C1380000B2', { ...dimmer('00D2', 2), fault: 70_000 }),
      row('A4C1380000B2', dimmer('00D3', 3)),
    ];
    const refused = (await repo.appendHistory(rows).catch((error: unknown) => error)) as { code?: string; cause?: { code?: string } };
    // Drizzle on PGlite wraps the database's error.
    expect(refused.code ?? refused.cause?.code).toBe('22003');
    expect(await historyOf(gw!.id)).toEqual([]);
    const { logger, lines } = memoryLogger();
    const sut = createReportWriter({ repo, logger });
    await sut.accept('A4C1380000B2', report(T0, ...rows.map((r) => r.state)));
    await sut.close();
    expect((await historyOf(gw!.id)).map((r) => r.addr)).toEqual(['00D1', '00D3']);
    expect(sut.stats).toMatchObject({ accepted: 3, written: 2, dropped: 1 });
    expect(lines.some((l) => l.msg === 'device report dropped: the database refused it' && l.addr === '00D2')).toBe(true);
  });

  it('retries a batch that failed part way, without a duplicate or a gap', async () => {
    const [gw] = await h.database.db.insert(gateways).values({ mac: 'A4C1380000B3' }).returning({ id: gateways.id });
    // The tenth row of the first attempt fails as a transient error (not a data error): the writer retries.
    const { db } = h.database;
    await db.execute(sql`create sequence copy_test_rows`);
    await db.execute(
      sql.raw(`create function copy_test_fail() returns trigger language plpgsql as $$
        begin
          if new.gateway_id = ${gw!.id} and nextval('copy_test_rows') = 10 then
            raise exception 'transient' using errcode = '40001';
          end if;
          return new;
        end $$`),
    );
    await db.execute(sql`create trigger copy_test_fail before insert on device_reports for each row execute function copy_test_fail()`);
    try {
      const { logger, lines } = memoryLogger();
      const sut = createReportWriter({ repo: createDeviceReportsRepo(h.database.db), logger, retryMs: { min: 1, max: 1 } });
      const states = Array.from({ length: 40 }, (_, i) => dimmer(`E${String(i).padStart(3, '0')}`, i));
      await sut.accept('A4C1380000B3', report(T0, ...states));
      await sut.close();
      expect((await historyOf(gw!.id)).map((r) => r.addr)).toEqual(states.map((s) => s.addr));
      expect(sut.stats).toMatchObject({ accepted: 40, written: 40, dropped: 0, retries: 1 });
      expect(lines.some((l) => l.msg === 'device report not written yet, retrying')).toBe(true);
    } finally {
      await db.execute(sql`drop trigger copy_test_fail on device_reports`);
      await db.execute(sql`drop function copy_test_fail()`);
      await db.execute(sql`drop sequence copy_test_rows`);
    }
  });

  it('never lets a reader paging by id miss a row: one history write at a time, ids in commit order', async () => {
    const [gw] = await h.database.db.insert(gateways).values({ mac: 'A4C1380000B4' }).returning({ id: gateways.id });
    const repo = createDeviceReportsRepo(h.database.db);
    let inFlight = 0;
    let mostInFlight = 0;
    const counting = {
      upsertStates: repo.upsertStates,
      appendChangedHistory: repo.appendChangedHistory,
      async appendHistory(rows: readonly ReportRow[]): Promise<HistoryResult> {
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        try {
          return await repo.appendHistory(rows);
        } finally {
          inFlight--;
        }
      },
    };
    const { logger } = memoryLogger();
    const sut = createReportWriter({ repo: counting, logger, maxBatch: 50 });
    // A reader pages by id while the writer writes; whatever it saw, in order, must be the whole history.
    const seen: bigint[] = [];
    let reading = true;
    const reader = (async () => {
      let after = 0n;
      for (;;) {
        const done = !reading;
        const page = await h.database.db
          .select({ id: deviceReports.id })
          .from(deviceReports)
          .where(and(eq(deviceReports.gatewayId, gw!.id), gt(deviceReports.id, after)))
          .orderBy(asc(deviceReports.id))
          .limit(100);
        for (const r of page) seen.push(r.id);
        if (page.length > 0) after = page[page.length - 1]!.id;
        if (done && page.length === 0) return;
        // PGlite answers without leaving the microtask queue: let the writer's scheduled batch run.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })();
    for (let n = 0; n < 20; n++)
      await sut.accept('A4C1380000B4', report(T0 + n, ...Array.from({ length: 30 }, (_, i) => dimmer(`F${n}-${i}`, i))));
    await sut.close();
    reading = false;
    await reader;
    const all = (await historyOf(gw!.id)).map((r) => r.id);
    expect(all).toHaveLength(600);
    expect(seen).toEqual(all);
    expect(mostInFlight).toBe(1);
  });
});

describe.each(DATABASES.filter((kind) => kind === 'postgres'))('gateways resolved in memory on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApp(kind);
  });
  afterAll(async () => h.close());

  it('writes from memory until told of a change, and resolves a gateway gone since again', async () => {
    const { db } = h.database;
    const [gw] = await db.insert(gateways).values({ mac: 'A4C1380000C1' }).returning({ id: gateways.id });
    const [account] = await db.select({ id: users.id }).from(users).limit(1);
    let lookups = 0;
    const bus = createLocalBus();
    const directory = createGatewayDirectory({
      lookup: (macs) => {
        lookups++;
        return gatewaysByMacAnyTenant(db, macs);
      },
      bus,
    });
    const repo = createDeviceReportsRepo(db, { gateways: directory });
    const tenants = async () =>
      (await db.select().from(deviceReports).where(eq(deviceReports.gatewayId, gw!.id)).orderBy(asc(deviceReports.id))).map(
        (r) => r.tenantId,
      );

    await repo.appendHistory([row('A4C1380000C1', dimmer('0A01', 1))]);
    await repo.upsertStates([row('A4C1380000C1', dimmer('0A01', 1))]);
    expect(lookups).toBe(1);
    // A change nobody announced is not seen: every change goes through the queries that tell the directory.
    await db.update(gateways).set({ tenantId: account!.id }).where(eq(gateways.id, gw!.id));
    await repo.appendHistory([row('A4C1380000C1', dimmer('0A02', 2))]);
    expect(lookups).toBe(1);
    // Announced by another node on the bus: read again.
    bus.publish({ kind: 'placementsChanged', gatewayIds: [String(gw!.id)] });
    await repo.appendHistory([row('A4C1380000C1', dimmer('0A03', 3))]);
    expect(lookups).toBe(2);
    expect(await tenants()).toEqual([null, null, account!.id]);

    // The gateway's row goes (a restore that lost it): the COPY fails on the foreign key, the writer drops
    // the rows as from an unknown MAC once the directory has looked again.
    await db.delete(gateways).where(eq(gateways.id, gw!.id));
    const { logger, lines } = memoryLogger();
    const sut = createReportWriter({ repo, logger });
    await sut.accept('A4C1380000C1', report(T0, dimmer('0A04', 4), dimmer('0A05', 5)));
    await sut.close();
    expect(sut.stats).toMatchObject({ accepted: 2, written: 0, dropped: 2 });
    expect(lines.some((l) => l.msg === 'device report dropped: no gateway with this MAC' && l.mac === 'A4C1380000C1')).toBe(true);
    expect(directory.holds('A4C1380000C1')).toBe(false);
  });
});
