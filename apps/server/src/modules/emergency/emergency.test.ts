import {
  alertEndpoints,
  emergencyEndpoints as E,
  gatewayEndpoints,
  OPERATE_AUTH,
  projectEndpoints,
  emergencyDestination,
  type EmergencyTaskSaveBody,
  type EmergencyTopicMessage,
  type GatewayDevice,
} from '@lumigrid/contract';
import { EMERGENCY_STATES, LIFE_RESULTS } from '@lumigrid/protocol';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SERVICE_DATABASES, expectError, login, signUpByMail } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, rigHandles, startGatewayRig, userIdOf, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { buildReportMail } from '../reports/report-content.ts';
import { createRecipientsRepo } from '../reports/recipients.repo.ts';
import { poll } from '../../test/poll.ts';
import { listenForRealtime, stompClient, type StompTestClient } from '../../test/realtime.fixtures.ts';
import { subAccount } from '../../test/projects.fixtures.ts';
import { tenancyCase, tenancyMatrix, tenancyPrincipals, type Principal, type PrincipalKey } from '../../test/tenancy.ts';

const SECRET = 'Secret stairwell';

/** A PDF's text as poppler's pdftotext reads it (CI installs poppler-utils). */
async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lumigrid-log-book-'));
  try {
    await writeFile(join(dir, 'book.pdf'), pdf);
    await promisify(execFile)('pdftotext', [join(dir, 'book.pdf'), join(dir, 'book.txt')]);
    return await readFile(join(dir, 'book.txt'), 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type Ids = { project: string; map: string; task: string; run: string; device: string; entry: string };

describe.each(SERVICE_DATABASES)('emergency testing over the broker on %s', (kind) => {
  let rig: GatewayRig;
  let token: string;
  let intruder: string;
  let viewOnly: string;
  let principals: Record<PrincipalKey, Principal>;
  let lights: GatewayDevice[];
  let stomp: StompTestClient;
  const live: EmergencyTopicMessage[] = [];
  let place: { projectId: string; buildId: string; mapId: string; gatewayId: string };
  let buildName: string;
  const a = {} as Ids;
  const b = {} as Ids;
  const { h, sim, send } = rigHandles(
    () => rig,
    () => token,
  );
  let names = 0;
  const task = (overrides: Partial<EmergencyTaskSaveBody> = {}): EmergencyTaskSaveBody => ({
    name: `Task ${++names}`,
    ...place,
    deviceIds: lights.map((l) => l.id),
    test: 'function',
    duration: 30,
    batteryCells: 4,
    lightType: 'maintained',
    ...overrides,
  });
  const create = async (overrides: Partial<EmergencyTaskSaveBody> = {}) => (await data(send(E.save, { body: task(overrides) }))).id;
  const detail = (id: string) => data(send(E.get, { params: { id, runId: '0' } }));
  const ended = async (id: string) => {
    await poll(async () => (await detail(id)).run?.state !== 'running', `task ${id} ended`, { timeoutMs: 20_000 });
    await h().app.emergencyRunner.settled();
    return detail(id);
  };
  /** Moves the server's clock; sessions idle that long have ended, so the owner signs in again. */
  const advance = async (ms: number) => {
    h().clock.advance(ms);
    token = await login(h(), 'emergency@example.com', 'Secret-Pass1');
  };
  const charged = async () => {
    for (const l of lights) sim().emergencyLight(l.addr).set({ charge: 100, batteryAgeYears: 0, failure: undefined });
  };

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 1 });
    token = await signUpByMail(h(), 'emergency@example.com');
    intruder = await signUpByMail(h(), 'emergency-intruder@example.com');
    const built = await buildGatewayWithDevices(h(), token, { mac: sim().mac, name: 'Stairs gateway', place: () => true });
    lights = built.devices.filter((d) => d.kind.startsWith('emergency'));
    expect(lights.length).toBeGreaterThanOrEqual(2);
    const tree = await data(send(projectEndpoints.tree, { params: { id: '0' } }));
    const project = tree.projects.find((p) => p.isDefault)!;
    place = { projectId: project.id, buildId: project.builds[0]!.id, mapId: built.mapId, gatewayId: built.gateway.id };
    buildName = project.builds[0]!.name;
    principals = await tenancyPrincipals(h(), {
      victim: 'emergency@example.com',
      victimToken: token,
      intruder: 'emergency-intruder@example.com',
    });
    viewOnly = await subAccount(h(), 'emergency@example.com', OPERATE_AUTH.viewOnly);
    const other = await data(send(projectEndpoints.tree, { params: { id: '0' } }, intruder));
    const otherProject = other.projects.find((p) => p.isDefault)!;
    Object.assign(b, { project: otherProject.id, map: otherProject.builds[0]!.maps[0]!.id });
    stomp = await stompClient(await listenForRealtime(h().app), { Authorization: `Bearer ${token}` });
    await stomp.subscribe(emergencyDestination(place.mapId), (m) => live.push(JSON.parse(m.body) as EmergencyTopicMessage));
  }, 120_000);
  afterAll(async () => {
    await stomp?.stop();
    await rig?.close();
  });

  it('runs a function test that passes, with records, the log book and the tree', async () => {
    await charged();
    const id = await create({ name: SECRET });
    const tree = await data(send(E.tree, { params: { projectId: place.projectId, taskId: id } }));
    const gateway = tree.builds
      .flatMap((x) => x.maps)
      .flatMap((m) => m.gateways)
      .find((g) => g.id === place.gatewayId)!;
    expect(
      gateway.devices
        .filter((d) => d.selected)
        .map((d) => d.id)
        .sort(),
    ).toEqual(lights.map((l) => l.id).sort());

    const told = vi.spyOn(h().app.webhooks.service, 'emit');
    const started = await data(send(E.execute, { params: { id, action: 'start' } }));
    expect(started.started).toBe(lights.length);
    const done = await ended(id);
    expect(done.run).toMatchObject({ state: 'finished', result: 'pass', passed: lights.length, failed: 0, progress: 100 });
    // Integrators are told the run's end (webhooks), with the run as the emergency calls answer it.
    await poll(async () => {
      const sources = await Promise.all(told.mock.calls.map(([source]) => (typeof source === 'function' ? source() : source)));
      return sources.some((e) => e?.kind === 'emergency.testFinished' && e.data.id === done.run!.id && e.data.result === 'pass');
    }, 'the run’s end told to webhooks');
    told.mockRestore();
    // Live: each light testing, then the run's end, on the map's emergency topic.
    await poll(() => live.some((m) => m.kind === 'run' && m.run.id === done.run!.id && m.run.state === 'finished'), 'the run ended, live');
    expect(
      live
        .filter((m) => m.kind === 'light' && m.runId === done.run!.id && m.category === 'testing')
        .map((m) => m.kind === 'light' && m.deviceId),
    ).toEqual(expect.arrayContaining(lights.map((l) => l.id)));
    // The reports after the test (charging back) recolour the map too.
    await poll(
      () => live.some((m) => m.kind === 'light' && m.runId === null),
      `a light reported, live: ${JSON.stringify(live.filter((m) => m.kind === 'light').slice(-4))}`,
    );
    expect(done.task).toMatchObject({ status: 'finished', result: 'pass', quantity: lights.length });
    const records = await data(send(E.runDetails, { body: { runId: done.run!.id } }));
    expect(records.list.every((r) => r.passed === true && r.result === 0 && r.voltageBefore !== null)).toBe(true);
    const book = await data(send(E.logBook, { body: { projectId: place.projectId } }));
    expect(book.list.filter((e) => e.runId === done.run!.id).map((e) => [e.type, e.result])).toEqual(lights.map(() => ['test', 'pass']));
    const map = await data(send(E.mapState, { params: { id: place.mapId } }));
    expect(map.lights.filter((l) => lights.some((x) => x.id === l.deviceId)).every((l) => !l.functionOverdue && l.lifeOverdue)).toBe(true);
    Object.assign(a, { project: place.projectId, map: place.mapId, task: id, run: done.run!.id, device: lights[0]!.id });
    expectError(await send(E.save, { body: task({ name: SECRET }) }), 340001);
  });

  const compliance = async (overdueOnly = true) => data(send(E.compliance, { body: { projectId: place.projectId, overdueOnly } }));

  it('fails a duration test on an aged battery with capacity low and raises the battery alert', async () => {
    await charged();
    const [aged] = lights;
    sim().emergencyLight(aged!.addr).set({ batteryAgeYears: 4 });
    const id = await create({ test: 'life', duration: 5, deviceIds: [aged!.id] });
    await data(send(E.execute, { params: { id, action: 'start' } }));
    const done = await ended(id);
    expect(done.run).toMatchObject({ result: 'failed', failed: 1 });
    const [record] = (await data(send(E.runDetails, { body: { runId: done.run!.id } }))).list;
    expect(record).toMatchObject({ result: LIFE_RESULTS.capacityLow, passed: false, failures: ['battery'], faultCode: 6 });
    await h().app.alertTracker.settled();
    await poll(
      async () => (await data(send(alertEndpoints.page, { body: { code: 6, open: true } }))).list.some((x) => x.deviceId === aged!.id),
      'battery alert',
    );
    const book = await data(send(E.logBook, { body: { projectId: place.projectId, type: 'failure' } }));
    const failure = book.list.find((e) => e.runId === done.run!.id)!;
    const ack = await data(send(E.acknowledge, { body: { entryId: failure.id, note: 'battery ordered' } }));
    expect(ack.entry).toMatchObject({ type: 'acknowledgement', refId: failure.id, by: expect.any(String) });
    const who = ack.entry.by;
    // What an inspector reads: the kind of test, where, the duration reached against the rated one, who started it.
    expect(failure).toMatchObject({
      type: 'failure',
      faultCode: 6,
      acknowledged: null,
      test: 'life',
      buildName,
      durationS: record!.durationS,
      ratedDurationS: 5 * 60,
      trigger: 'manual',
      startedBy: who,
      stoppedBy: '',
    });
    expect(who).not.toBe('');
    expectError(await send(E.acknowledge, { body: { entryId: failure.id } }), 100404);
    a.entry = failure.id;

    // Failed, not compliant: first in the list, due again at once, until a later duration test passes.
    const failed = await compliance();
    expect(failed.list[0]).toMatchObject({
      deviceId: aged!.id,
      state: 'failed',
      lastLifeTestPassed: false,
      lastLifeTestAt: record!.finishedAt,
      lifeDueAt: record!.finishedAt,
      repairedAt: null,
    });
    expect(failed).toMatchObject({ failed: 1, awaitingRepair: 1 });

    // Handling its alert with a note is the repair the log book records, by who handled it.
    const [alert] = (await data(send(alertEndpoints.page, { body: { code: 6, open: true } }))).list.filter((x) => x.deviceId === aged!.id);
    await advance(3600_000);
    await data(send(alertEndpoints.handle, { body: { ids: [alert!.id], note: 'Battery pack replaced' } }));
    const repairs = await data(send(E.logBook, { body: { projectId: place.projectId, type: 'repair' } }));
    expect(repairs.list).toEqual([
      expect.objectContaining({
        deviceId: aged!.id,
        faultCode: 6,
        note: 'Battery pack replaced',
        by: who,
        buildName,
        at: h().clock.now().toISOString(),
      }),
    ]);
    const repaired = await compliance();
    expect(repaired.list.find((r) => r.deviceId === aged!.id)).toMatchObject({
      state: 'repaired',
      repairedAt: h().clock.now().toISOString(),
      lastLifeTestPassed: false,
    });
    expect(repaired).toMatchObject({ failed: 1, awaitingRepair: 0 });
  });

  it('refuses every write to a view-only user', async () => {
    for (const res of [
      await send(E.save, { body: task() }, viewOnly),
      await send(E.execute, { params: { id: a.task, action: 'start' } }, viewOnly),
      await send(E.acknowledge, { body: { entryId: a.entry } }, viewOnly),
      await send(E.repair, { body: { deviceId: a.device, note: 'x' } }, viewOnly),
    ])
      expectError(res, 110003);
    await data(send(E.logBook, { body: { projectId: a.project } }, viewOnly));
  });

  describe('another account', () => {
    tenancyMatrix({
      domain: E,
      secrets: [SECRET],
      cases: [
        tenancyCase(E.tasks, (x: Ids) => ({ body: { projectId: x.project } })),
        tenancyCase(E.save, (x: Ids, y: Ids) => ({ body: { ...task(), name: 'Intruder', projectId: y.project, mapId: x.map } })),
        tenancyCase(E.execute, (x: Ids) => ({ params: { id: x.task, action: 'start' as const } })),
        tenancyCase(E.get, (x: Ids) => ({ params: { id: x.task, runId: '0' } })),
        tenancyCase(E.tree, (x: Ids) => ({ params: { projectId: x.project, taskId: '0' } })),
        tenancyCase(E.mapState, (x: Ids) => ({ params: { id: x.map } })),
        tenancyCase(E.runs, (x: Ids) => ({ body: { taskId: x.task } })),
        tenancyCase(E.runDetails, (x: Ids) => ({ body: { runId: x.run } })),
        tenancyCase(E.deviceRecords, (x: Ids) => ({ body: { deviceId: x.device } })),
        tenancyCase(E.report, (x: Ids) => ({ body: { runId: x.run } })),
        tenancyCase(E.logBook, (x: Ids) => ({ body: { projectId: x.project } })),
        tenancyCase(E.logBookPdf, (x: Ids) => ({ body: { projectId: x.project } })),
        tenancyCase(E.logBookExcel, (x: Ids) => ({ body: { projectId: x.project } })),
        tenancyCase(E.acknowledge, (x: Ids) => ({ body: { entryId: x.entry } })),
        tenancyCase(E.repair, (x: Ids) => ({ body: { deviceId: x.device, note: 'x' } })),
        tenancyCase(E.compliance, (x: Ids) => ({ body: { projectId: x.project } })),
      ],
      world: () => ({ app: h().app, intruder, a, b, principals }),
    });
  });

  it('refuses a life test on a charging light unless the setting allows it', async () => {
    // The last life test on this gateway ended just now: the next one rests 24 h (the stop test below).
    await advance(25 * 3600_000);
    await charged();
    const [light] = lights;
    sim().emergencyLight(light!.addr).set({ charge: 60 });
    const refusing = await create({ test: 'life', duration: 5, deviceIds: [light!.id], allowWhileCharging: false });
    const res = await data(send(E.execute, { params: { id: refusing, action: 'start' } }));
    expect(res.refused).toEqual([{ deviceId: light!.id, name: light!.name, state: EMERGENCY_STATES.lifeTestImpossibleWhileCharging }]);
    expect((await ended(refusing)).run?.result).toBe('stopped');
    sim().emergencyLight(light!.addr).set({ charge: 60 });
    const allowed = await create({ test: 'life', duration: 5, deviceIds: [light!.id], allowWhileCharging: true });
    const started = await data(send(E.execute, { params: { id: allowed, action: 'start' } }));
    expect(started.started).toBe(1);
    expect((await ended(allowed)).run).toMatchObject({ result: 'pass' });
    // The duration test that passes after the repair ends the failure: the light is compliant again.
    expect((await compliance(false)).list.find((r) => r.deviceId === light!.id)).toMatchObject({
      state: 'compliant',
      lastLifeTestPassed: true,
      repairedAt: null,
    });
  });

  it('stops a running test and deletes a task, keeping its records and log book', async () => {
    await advance(25 * 3600_000);
    await charged();
    const id = await create({ test: 'life', duration: 600 });
    await data(send(E.execute, { params: { id, action: 'start' } }));
    expect((await detail(id)).task.status).toBe('running');
    const running = await data(send(E.tasks, { body: { status: 'running', projectId: place.projectId } }));
    expect(running.list.map((t) => t.id)).toEqual([id]);
    expect(running.total).toBe(1);
    expectError(await send(E.execute, { params: { id, action: 'start' } }), 100401);
    expectError(await send(E.save, { body: { ...task(), id } }), 100402);
    const stopped = await data(send(E.execute, { params: { id, action: 'stop' } }));
    expect(stopped.stopped).toBe(lights.length);
    const after = await detail(id);
    expect(after.run).toMatchObject({ state: 'stopped', result: 'stopped', startedBy: expect.stringMatching(/.+/), buildName });
    expect(after.run!.stoppedBy).toBe(after.run!.startedBy);
    expect(after.devices.every((d) => d.passed === false)).toBe(true);
    expectError(await send(E.execute, { params: { id, action: 'stop' } }), 100403);
    const runId = after.run!.id;
    await data(send(E.execute, { params: { id, action: 'delete' } }));
    expectError(await send(E.get, { params: { id, runId: '0' } }), 110011);
    const runs = await data(send(E.runs, { body: { projectId: place.projectId } }));
    expect(runs.list.find((r) => r.id === runId)).toMatchObject({ taskId: null, state: 'stopped' });
    const book = await data(send(E.logBook, { body: { projectId: place.projectId, pageSize: 200 } }));
    const entries = book.list.filter((e) => e.runId === runId);
    expect(entries.every((e) => e.result === 'stopped' && e.stoppedBy === after.run!.stoppedBy && e.ratedDurationS === 600 * 60)).toBe(
      true,
    );
  });

  it('times a silent light out as a communication failure (fault 9)', async () => {
    await charged();
    const silent = lights[1]!;
    sim().emergencyLight(silent.addr).set({ failure: 'communication' });
    const id = await create({ test: 'function', duration: 15, deviceIds: [silent.id] });
    await data(send(E.execute, { params: { id, action: 'start' } }));
    expect((await detail(id)).run?.state).toBe('running');
    // No result comes; the wave's deadline (duration + 2 min on the server's clock) closes it.
    await advance(15_000 + 121_000);
    await h().app.jobs.runDue();
    const done = await ended(id);
    expect(done.run).toMatchObject({ result: 'failed', failed: 1 });
    expect(done.devices[0]).toMatchObject({ passed: false, failures: ['communication'] });
    await h().app.alertTracker.settled();
    await poll(
      async () => (await data(send(alertEndpoints.page, { body: { code: 9, open: true } }))).list.some((x) => x.deviceId === silent.id),
      'communication alert',
    );
    sim().emergencyLight(silent.addr).set({ failure: undefined });
    // Handled without a note, nothing says what was done: no repair is written.
    const repairs = async () => (await data(send(E.logBook, { body: { projectId: place.projectId, type: 'repair' } }))).total;
    const before = await repairs();
    const comms = (await data(send(alertEndpoints.page, { body: { code: 9, open: true } }))).list.filter((x) => x.deviceId === silent.id);
    expect(await data(send(alertEndpoints.handle, { body: { ids: comms.map((x) => x.id), note: '' } }))).toEqual({ count: comms.length });
    expect(await repairs()).toBe(before);
  });

  it('runs a monthly task twice on the job runner, neighbours in separate waves', async () => {
    await charged();
    const id = await create({
      test: 'function',
      duration: 15,
      schedule: { rule: 'monthly', day: 1, month: 1, time: '02:00', timeZone: 'UTC' },
      stagger: { spacingM: 100, planWidthM: 50 },
    });
    const first = (await detail(id)).task.nextRunAt!;
    for (const round of [1, 2]) {
      const at = (await detail(id)).task.nextRunAt!;
      await advance(Date.parse(at) - h().clock.now().getTime() + 1000);
      await h().app.jobs.runDue();
      await poll(async () => (await detail(id)).run !== null && (await detail(id)).task.lastRunAt !== null, `run ${round}`);
      const done = await ended(id);
      expect(done.run).toMatchObject({ trigger: 'schedule', result: 'pass', waves: lights.length, passed: lights.length });
      const records = (await data(send(E.runDetails, { body: { runId: done.run!.id } }))).list;
      // Each light tested in its own wave, and each wave started after the one before ended.
      expect(new Set(records.map((r) => r.wave)).size).toBe(lights.length);
      const sorted = [...records].sort((x, y) => x.wave - y.wave);
      for (let i = 1; i < sorted.length; i++)
        expect(Date.parse(sorted[i]!.startedAt!)).toBeGreaterThanOrEqual(Date.parse(sorted[i - 1]!.finishedAt!));
    }
    const runs = await data(send(E.runs, { body: { taskId: id } }));
    expect(runs.total).toBe(2);
    expect(Date.parse((await detail(id)).task.nextRunAt!)).toBeGreaterThan(Date.parse(first));
  });

  it('keeps the log book in order and refuses every change, through calls and in the database', async () => {
    const book = await data(send(E.logBook, { body: { projectId: place.projectId, pageSize: 200 } }));
    const seqs = book.list.map((e) => e.seq).reverse();
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const { db } = h().database;
    await expect(db.execute(sql`update emergency_log_book set note = 'edited'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from emergency_log_book`)).rejects.toThrow();
    expect((await data(send(E.logBook, { body: { projectId: place.projectId, pageSize: 200 } }))).total).toBe(book.total);
    const repair = await data(send(E.repair, { body: { deviceId: lights[0]!.id, note: 'battery replaced' } }));
    expect(repair.entry).toMatchObject({ type: 'repair', seq: book.total + 1, note: 'battery replaced' });
  });

  it('exports the records as Excel and the log book as PDF and Excel', async () => {
    const xlsx = await h().app.inject({ method: 'POST', url: E.report.path, headers: { authorization: `Bearer ${token}` }, payload: {} });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const pdf = await h().app.inject({
      method: 'POST',
      url: E.logBookPdf.path,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'ja' },
      payload: { projectId: place.projectId },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    if (process.env.EMERGENCY_PDF_OUT) (await import('node:fs')).writeFileSync(process.env.EMERGENCY_PDF_OUT, pdf.rawPayload);

    // The site keeps Tokyo time: the log book's times are on its wall clock, the zone named.
    await data(send(gatewayEndpoints.setParams, { body: { id: place.gatewayId, timezone: 'Asia/Tokyo' } }));
    const failure = (await data(send(E.logBook, { body: { projectId: place.projectId, type: 'failure' } }))).list.find(
      (e) => e.id === a.entry,
    )!;
    const tokyo = new Date(Date.parse(failure.at) + 9 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    const book = await h().app.inject({
      method: 'POST',
      url: E.logBookExcel.path,
      headers: { authorization: `Bearer ${token}` },
      payload: { projectId: place.projectId },
    });
    expect(book.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(book.rawPayload as unknown as ArrayBuffer);
    const sheetRows: string[][] = [];
    workbook.worksheets[0]!.eachRow((row) =>
      sheetRows.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))),
    );
    const header = sheetRows.find((row) => row[0] === 'No.')!;
    const failureRow = sheetRows.find((row) => row[0] === String(failure.seq))!;
    const cell = (name: string) => failureRow[header.indexOf(name)];
    expect(header).toContain('Date (Asia/Tokyo)');
    expect([cell('Date (Asia/Tokyo)'), cell('Test'), cell('Building'), cell('Rated duration (s)'), cell('Started by')]).toEqual([
      tokyo,
      'Duration test',
      buildName,
      '300',
      failure.startedBy,
    ]);
    expect(cell('Duration achieved (s)')).toBe(String(Math.round(failure.durationS!)));

    const text = await pdfText(
      (
        await h().app.inject({
          method: 'POST',
          url: E.logBookPdf.path,
          headers: { authorization: `Bearer ${token}` },
          payload: { projectId: place.projectId, type: 'failure' },
        })
      ).rawPayload,
    );
    // Cells wrap where the column ends, so the text is compared without its white space.
    const squeezed = (t: string) => t.replace(/\s+/g, '');
    for (const shown of [
      'Time zone: Asia/Tokyo',
      tokyo,
      'Duration test',
      buildName,
      `Started by: ${failure.startedBy}`,
      'Failed: Battery fault',
    ])
      expect(squeezed(text)).toContain(squeezed(shown));
    // Duration reached against the rated 5 minutes (the aged battery lasted the test, then fell short in capacity).
    expect(text).toContain('0:05:00 / 0:05:00');
    // The totals count what the book shows: failures only.
    expect(text).toMatch(/Totals: 2 entries\s+Failure \(Failed\): 2\s+Inspector/);
    // The mailed report's emergency sheet lists the runs of the period.
    const runs = await createRecipientsRepo(h().database.db).emergencyRuns({
      tenantId: BigInt(await userIdOf(h(), 'emergency@example.com')),
      projectId: BigInt(place.projectId),
      from: new Date(0),
      to: new Date(Date.parse('2100-01-01')),
      limit: 200,
    });
    const mail = await buildReportMail({
      recipientName: 'Inspector',
      projectName: 'Site',
      unit: 'month',
      lang: 'en',
      timeZone: 'UTC',
      contents: ['emergency'],
      firstDay: { year: 2026, month: 11, day: 1 },
      endDay: { year: 2026, month: 12, day: 1 },
      energy: [],
      faults: { byCode: [], list: [] },
      emergency: runs,
    });
    expect(runs.length).toBeGreaterThan(3);
    expect(mail.text).toContain(`${SECRET} (Function test): Pass, ${lights.length}/${lights.length}`);
    const compliance = await data(send(E.compliance, { body: { projectId: place.projectId } }));
    expect(compliance.lights).toBe(lights.length);
    expect(compliance.list.every((r) => r.functionOverdue || r.lifeOverdue)).toBe(true);
  });
  it('shows the lights behind a gateway that went offline offline on the map, in the tree and in a task, whatever they last reported', async () => {
    const id = await create({ name: 'Blackout' });
    const ours = (deviceId: string) => lights.some((l) => l.id === deviceId);
    /** Each light's presence as the map (with its legend colour), the task form's tree and the task show it. */
    const shown = async () => {
      const map = await data(send(E.mapState, { params: { id: place.mapId } }));
      const tree = await data(send(E.tree, { params: { projectId: place.projectId, taskId: id } }));
      const gateway = tree.builds
        .flatMap((x) => x.maps)
        .flatMap((m) => m.gateways)
        .find((g) => g.id === place.gatewayId)!;
      return {
        map: map.lights.filter((l) => ours(l.deviceId)).map((l) => ({ online: l.online, offlineColour: l.category === 'offline' })),
        tree: gateway.devices.filter((d) => ours(d.id)).map((d) => d.online),
        task: (await detail(id)).devices.map((d) => d.online),
      };
    };
    const everywhere = (online: boolean) => ({
      map: lights.map(() => ({ online, offlineColour: !online })),
      tree: lights.map(() => online),
      task: lights.map(() => online),
    });
    const gatewayOnline = async () => (await data(send(gatewayEndpoints.detail, { params: { id: place.gatewayId } }))).online;
    expect(await shown()).toEqual(everywhere(true));
    await sim().goOffline();
    try {
      await poll(async () => !(await gatewayOnline()), 'the gateway offline');
      // The lights' last reports still say online: only their gateway's presence tells otherwise.
      const reported = await h().database.db.execute(
        sql`select bool_and(online) as online from device_states where addr in (${sql.join(
          lights.map((l) => sql`${l.addr}`),
          sql`, `,
        )})`,
      );
      expect((reported as unknown as { rows: Array<{ online: boolean }> }).rows[0]!.online).toBe(true);
      expect(await shown()).toEqual(everywhere(false));
    } finally {
      await sim().goOnline();
    }
    await poll(gatewayOnline, 'the gateway back online');
    await poll(async () => JSON.stringify(await shown()) === JSON.stringify(everywhere(true)), 'the lights online again');
    await data(send(E.execute, { params: { id, action: 'delete' } }));
  });

  it('lets the log book go only with its account', async () => {
    const { db } = h().database;
    const count = async () =>
      ((await db.execute(sql`select count(*)::int as n from emergency_log_book`)) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
    expect(await count()).toBeGreaterThan(0);
    await db.execute(sql`delete from users where account = 'emergency@example.com'`);
    expect(await count()).toBe(0);
  });
});
