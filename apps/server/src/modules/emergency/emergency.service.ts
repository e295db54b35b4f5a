import {
  EMERGENCY_LIMITS,
  emergencyCategory,
  emergencyDurationProblem,
  emergencyTaskNameProblem,
  PARAM_RANGES,
  type ComplianceListBody,
  type CompliancePage,
  type ComplianceRow,
  type ComplianceState,
  type EmergencyDeviceRecordsBody,
  type EmergencyExecuteParams,
  type EmergencyExecuteResult,
  type EmergencyMap,
  type EmergencyReportBody,
  type EmergencyRunDetailsBody,
  type EmergencyRunListBody,
  type EmergencyRunPage,
  type EmergencyRecordPage,
  type EmergencyTask,
  type EmergencyTaskDetail,
  type EmergencyTaskGetParams,
  type EmergencyTaskListBody,
  type EmergencyTaskPage,
  type EmergencyTaskSaveBody,
  type EmergencyTree,
  type EmergencyTreeParams,
  type LogBookAcknowledgeBody,
  type LogBookAppended,
  type LogBookListBody,
  type LogBookPage,
  type LogBookRepairBody,
  type LogBookReportBody,
} from '@lumigrid/contract';
import { isTimeZone } from '@lumigrid/protocol';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import type { Clock } from '../../lib/clock.ts';
import { paging } from '../../lib/paging.ts';
import { denyAccess, seesMap, toId, visibleProjectIds } from '../access/access.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { EmergencyRunner, RunActor } from './emergency-runner.ts';
import { repairEntry } from './emergency-repairs.ts';
import { logBookAnswer, recordAnswer, runAnswer } from './emergency.mappers.ts';
import type { EmergencyRepo, LightRow, RecordFilter, RunRow, TaskRow } from './emergency.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'scope' | 'userId'>;
/** A light's last test of a kind that ended with a result. */
type LastTest = { at: Date; passed: boolean; runId: string };
const DAY_MS = 86_400_000;
const REPORT_BATCH = 1000;

/** The rules of emergency testing: tasks, their actions, the records, the log book and compliance. */
export function createEmergencyService(deps: {
  repo: EmergencyRepo;
  runner: EmergencyRunner;
  access: Pick<ProjectAccess, 'requireProject' | 'requireMap'>;
  clock: Clock;
  /** The display name of a user, for the log book's "by". */
  nameOf: (userId: bigint) => Promise<string>;
}) {
  const { repo, runner, access, clock } = deps;

  async function requireTask(auth: Caller, id: string | bigint): Promise<TaskRow> {
    const task = await repo.findTask({ tenantId: auth.tenantId, id: typeof id === 'bigint' ? id : toId(id) });
    if (!task) denyAccess();
    await access.requireProject(auth, task.projectId);
    return task;
  }

  async function requireRun(auth: Caller, id: string): Promise<RunRow> {
    const run = await repo.findRun({ tenantId: auth.tenantId, id: toId(id) });
    if (!run) denyAccess();
    await access.requireProject(auth, run.projectId).catch(() => {
      denyAccess();
    });
    return run;
  }

  /** The filters of the record lists, each id checked to be the caller's. */
  async function recordFilter(auth: Caller, body: Partial<EmergencyReportBody>): Promise<RecordFilter> {
    const filter: RecordFilter = { tenantId: auth.tenantId, projectIds: visibleProjectIds(auth) };
    if (body.projectId) filter.projectId = (await access.requireProject(auth, body.projectId)).id;
    if (body.taskId) filter.taskId = (await requireTask(auth, body.taskId)).id;
    if (body.runId) filter.runId = (await requireRun(auth, body.runId)).id;
    if (body.deviceId) {
      const light = await repo.light({ tenantId: auth.tenantId, id: toId(body.deviceId) });
      if (!light || !seesMap(auth, light.mapId)) denyAccess();
      filter.deviceId = light.id;
    }
    if (body.from) filter.from = new Date(body.from);
    if (body.to) filter.to = new Date(body.to);
    return filter;
  }

  function lastTestsOf(rows: Awaited<ReturnType<EmergencyRepo['lastTests']>>) {
    const byDevice = new Map<bigint, { function?: LastTest; life?: LastTest }>();
    for (const row of rows) {
      if (row.deviceId === null) continue;
      const [, passed, runId] = row.last.split('|');
      const entry = byDevice.get(row.deviceId) ?? {};
      entry[row.test] = { at: new Date(row.at), passed: passed === 'true', runId: runId! };
      byDevice.set(row.deviceId, entry);
    }
    return byDevice;
  }

  function overdue(at: Date | undefined, days: number) {
    return !at || clock.now().getTime() - at.getTime() > days * DAY_MS;
  }

  /** The caller as the log book and a run name who acted by hand. */
  async function actor(auth: Caller): Promise<RunActor> {
    return { userId: auth.userId, name: await deps.nameOf(auth.userId) };
  }

  async function taskAnswers(auth: Caller, rows: Awaited<ReturnType<EmergencyRepo['listTasks']>>['rows']): Promise<EmergencyTask[]> {
    const runIds = rows.flatMap((r) => (r.lastRunId === null ? [] : [BigInt(r.lastRunId)]));
    const counts = await repo.runCounts(runIds);
    const runs = new Map<bigint, RunRow>();
    for (const runId of runIds) {
      const run = await repo.findRun({ tenantId: auth.tenantId, id: runId });
      if (run) runs.set(run.id, run);
    }
    return Promise.all(
      rows.map(async (r) => {
        const run = r.lastRunId === null ? undefined : runs.get(BigInt(r.lastRunId));
        const answer = run ? runAnswer(run, counts.get(run.id)) : undefined;
        const t = r.task;
        return {
          id: String(t.id),
          name: t.name,
          projectId: String(t.projectId),
          buildId: String(t.buildId),
          mapId: String(t.mapId),
          gatewayId: String(t.gatewayId),
          deviceIds: (await repo.taskDeviceIds(t.id)).map(String),
          test: t.test,
          duration: t.duration,
          batteryCells: t.batteryCells,
          lightType: t.lightType,
          allowWhileCharging: t.allowWhileCharging,
          schedule: t.schedule,
          stagger: t.stagger,
          projectName: r.projectName,
          buildName: r.buildName,
          mapName: r.mapName,
          gatewayName: r.gatewayName,
          quantity: r.quantity,
          status: run ? run.state : 'idle',
          progress: answer?.progress ?? 0,
          result: answer?.result ?? null,
          passed: answer?.passed ?? 0,
          failed: answer?.failed ?? 0,
          lastRunId: run ? String(run.id) : null,
          lastRunAt: run ? run.startedAt.toISOString() : null,
          nextRunAt: t.nextRunAt ? t.nextRunAt.toISOString() : null,
          createdAt: t.createdAt.toISOString(),
        } satisfies EmergencyTask;
      }),
    );
  }

  async function oneTask(auth: Caller, task: TaskRow): Promise<EmergencyTask> {
    const { rows } = await repo.listTasks({ tenantId: auth.tenantId, id: task.id, offset: 0, limit: 1 });
    if (rows.length === 0) denyAccess();
    return (await taskAnswers(auth, rows))[0]!;
  }

  /** Which entries of a project's log book a list or report asks for. */
  function logBookFilter(auth: Caller, body: LogBookReportBody, projectId: bigint) {
    return {
      tenantId: auth.tenantId,
      projectId,
      type: body.type,
      from: body.from ? new Date(body.from) : undefined,
      to: body.to ? new Date(body.to) : undefined,
    };
  }

  /** Entries of a log book in batches, oldest first (the PDF and the workbook). */
  async function* logBookBatches(auth: Caller, body: LogBookReportBody, projectId: bigint) {
    for (let offset = 0; ; offset += REPORT_BATCH) {
      const page = await repo.logBook({
        ...logBookFilter(auth, body, projectId),
        order: 'asc',
        offset,
        limit: REPORT_BATCH,
      });
      yield page.rows.map((r) => logBookAnswer(r, page.acks.get(r.id)));
      if (page.rows.length < REPORT_BATCH) return;
    }
  }

  return {
    async tasks(auth: Caller, body: EmergencyTaskListBody): Promise<EmergencyTaskPage> {
      const projectId = body.projectId ? (await access.requireProject(auth, body.projectId)).id : undefined;
      const { total, rows } = await repo.listTasks({
        tenantId: auth.tenantId,
        projectIds: visibleProjectIds(auth),
        projectId,
        name: body.name?.trim() || undefined,
        test: body.test,
        status: body.status,
        ...paging(body),
      });
      return { total, list: await taskAnswers(auth, rows) };
    },

    async save(auth: Caller, body: EmergencyTaskSaveBody): Promise<{ id: string }> {
      const existing = body.id ? await requireTask(auth, body.id) : undefined;
      if (existing && (await repo.lastRunOfTask(existing.id))?.state === 'running') throw new AppError(100402);
      const name = body.name.trim();
      const nameProblem = emergencyTaskNameProblem(name);
      if (nameProblem) throw new AppError(nameProblem);
      const durationProblem = emergencyDurationProblem(body.test, body.duration);
      if (durationProblem) throw new AppError(durationProblem);
      if (body.batteryCells < EMERGENCY_LIMITS.batteryCells.min || body.batteryCells > EMERGENCY_LIMITS.batteryCells.max)
        throw new AppError(PARAM_RANGES.batteryCells.code);
      if (body.schedule?.timeZone && !isTimeZone(body.schedule.timeZone)) throw new AppError(100302);
      await access.requireProject(auth, body.projectId);
      const map = await access.requireMap(auth, body.mapId);
      const place = await repo.gatewayPlace({ tenantId: auth.tenantId, gatewayId: toId(body.gatewayId) });
      if (!place) denyAccess();
      // The screen's rule: project, building, map and gateway chosen, and each inside the one before.
      if (place.mapId !== map.id || String(place.buildId) !== body.buildId || String(place.projectId) !== body.projectId)
        throw new AppError(100001, 'gatewayId');
      const ids = [...new Set(body.deviceIds)].map(toId);
      if (ids.length === 0) throw new AppError(110009);
      const lights = await repo.gatewayLights({ tenantId: auth.tenantId, gatewayId: place.id, ids });
      if (lights.length !== ids.length) throw new AppError(110009);
      if (await repo.nameTaken({ tenantId: auth.tenantId, name, exceptId: existing?.id })) throw new AppError(340001);
      const values = {
        tenantId: auth.tenantId,
        projectId: place.projectId,
        buildId: place.buildId,
        mapId: place.mapId,
        gatewayId: place.id,
        name,
        test: body.test,
        duration: body.duration,
        batteryCells: body.batteryCells,
        lightType: body.lightType,
        allowWhileCharging: body.allowWhileCharging ?? false,
        schedule: body.schedule ?? { rule: 'none' as const, day: 1, month: 1, time: '02:00', timeZone: '' },
        stagger: body.stagger ?? { spacingM: 0, planWidthM: 50 },
      };
      let id: bigint;
      try {
        id = await repo.saveTask({ id: existing?.id, values, deviceIds: ids });
      } catch (err) {
        // Two saves of one name at once: the unique index decides.
        if (String((err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code) === '23505')
          throw new AppError(340001);
        throw err;
      }
      const task = (await repo.findTask({ tenantId: auth.tenantId, id }))!;
      await runner.schedulePlan(task, runner.timeZoneOf(task, place.timezone));
      return { id: String(id) };
    },

    async execute(auth: Caller, params: EmergencyExecuteParams): Promise<EmergencyExecuteResult> {
      const task = await requireTask(auth, params.id);
      const last = await repo.lastRunOfTask(task.id);
      const running = last?.state === 'running' ? last : undefined;
      const none: EmergencyExecuteResult = { runId: null, started: 0, refused: [], startsAt: null, stopped: 0 };
      if (params.action === 'start') {
        if (running) throw new AppError(100401);
        const { run, answer } = await runner.startRun(task, 'manual', await actor(auth));
        const lights = await repo.gatewayLights({ tenantId: auth.tenantId, gatewayId: task.gatewayId });
        const byAddr = new Map(lights.map((l) => [l.addr, l]));
        return {
          ...none,
          runId: String(run.id),
          started: answer?.started.length ?? 0,
          refused: (answer?.refused ?? []).map((r) => ({
            deviceId: String(byAddr.get(r.addr)?.id ?? 0),
            name: byAddr.get(r.addr)?.name ?? r.addr,
            state: r.state,
          })),
          startsAt: answer?.startsAt ? answer.startsAt.toISOString() : null,
        };
      }
      if (params.action === 'stop') {
        if (!running) throw new AppError(100403);
        const { stopped } = await runner.stopRun(running, await actor(auth));
        return { ...none, runId: String(running.id), stopped };
      }
      // delete: a run under way stops first; the runs, records and log book stay (runs lose only their task link).
      const stopped = running ? (await runner.stopRun(running, await actor(auth))).stopped : 0;
      await repo.deleteTask({ tenantId: auth.tenantId, id: task.id });
      return { ...none, runId: running ? String(running.id) : null, stopped };
    },

    async get(auth: Caller, params: EmergencyTaskGetParams): Promise<EmergencyTaskDetail> {
      const task = await requireTask(auth, params.id);
      const run = params.runId === '0' ? await repo.lastRunOfTask(task.id) : await requireRun(auth, params.runId);
      if (run && run.taskId !== task.id) denyAccess();
      const lights = await repo.gatewayLights({
        tenantId: auth.tenantId,
        gatewayId: task.gatewayId,
        ids: await repo.taskDeviceIds(task.id),
      });
      const records = run ? await repo.runRecords(run.id) : [];
      const byDevice = new Map(records.map((r) => [r.record.deviceId, r.record]));
      const counts = run ? (await repo.runCounts([run.id])).get(run.id) : undefined;
      return {
        task: await oneTask(auth, task),
        run: run ? runAnswer(run, counts) : null,
        devices: lights.map((l) => {
          const record = byDevice.get(l.id);
          return {
            deviceId: String(l.id),
            name: l.name,
            addr: l.addr,
            type: l.type,
            x: l.x,
            y: l.y,
            online: l.online,
            state: l.state?.emergencyState ?? null,
            battery: l.state?.battery ?? null,
            wave: record?.wave ?? null,
            progress: record?.progress ?? null,
            result: record?.result ?? null,
            passed: record?.passed ?? null,
            failures: record?.failures ?? [],
          };
        }),
      };
    },

    async tree(auth: Caller, params: EmergencyTreeParams): Promise<EmergencyTree> {
      const project = await access.requireProject(auth, params.projectId);
      const task = params.taskId === '0' ? undefined : await requireTask(auth, params.taskId);
      const selected = new Set(task ? await repo.taskDeviceIds(task.id) : []);
      const busy = await repo.busyDeviceIds({ tenantId: auth.tenantId, exceptTaskId: task?.id });
      const places = await repo.projectPlaces({ tenantId: auth.tenantId, projectId: project.id });
      const visible = (mapId: bigint) => !auth.scope || auth.scope.mapIds.has(mapId);
      const device = (l: LightRow) => ({
        id: String(l.id),
        name: l.name,
        type: l.type,
        addr: l.addr,
        state: l.state?.emergencyState ?? null,
        online: l.online,
        selected: selected.has(l.id),
        busy: busy.has(l.id),
      });
      return {
        project: { id: String(project.id), name: project.name },
        builds: places.builds.map((b) => ({
          id: String(b.id),
          name: b.name,
          maps: places.maps
            .filter((m) => m.buildId === b.id && visible(m.id))
            .map((m) => ({
              id: String(m.id),
              name: m.name,
              gateways: places.gateways
                .filter((g) => g.mapId === m.id)
                .map((g) => ({
                  id: String(g.id),
                  name: g.name,
                  mac: g.mac,
                  online: g.online,
                  devices: places.lights.filter((l) => l.gatewayId === g.id).map(device),
                })),
            })),
        })),
        selected: [...selected].map(String),
      };
    },

    async mapState(auth: Caller, mapId: string): Promise<EmergencyMap> {
      const map = await access.requireMap(auth, mapId);
      const lights = await repo.mapLights({ tenantId: auth.tenantId, mapIds: [map.id] });
      const last = lastTestsOf(await repo.lastTests(lights.map((l) => l.id)));
      const test = (t: { at: Date; passed: boolean; runId: string } | undefined) =>
        t ? { at: t.at.toISOString(), passed: t.passed, runId: t.runId } : null;
      return {
        mapId: String(map.id),
        lights: lights.map((l) => {
          const tests = last.get(l.id) ?? {};
          const state = l.state?.emergencyState ?? null;
          return {
            deviceId: String(l.id),
            name: l.name,
            addr: l.addr,
            type: l.type,
            gatewayId: String(l.gatewayId),
            x: l.x,
            y: l.y,
            online: l.online,
            state,
            category: emergencyCategory(state, l.online),
            battery: l.state?.battery ?? null,
            lastFunctionTest: test(tests.function),
            lastLifeTest: test(tests.life),
            functionOverdue: overdue(tests.function?.at, EMERGENCY_LIMITS.functionDueDays),
            lifeOverdue: overdue(tests.life?.at, EMERGENCY_LIMITS.lifeDueDays),
          };
        }),
      };
    },

    async runs(auth: Caller, body: EmergencyRunListBody): Promise<EmergencyRunPage> {
      const filter = await recordFilter(auth, body);
      const { total, rows } = await repo.listRuns({ filter, test: body.test, ...paging(body) });
      const counts = await repo.runCounts(rows.map((r) => r.id));
      return { total, list: rows.map((r) => runAnswer(r, counts.get(r.id))) };
    },

    async runDetails(auth: Caller, body: EmergencyRunDetailsBody): Promise<EmergencyRecordPage> {
      const run = await requireRun(auth, body.runId);
      const { total, rows } = await repo.listRecords({
        filter: { tenantId: auth.tenantId, runId: run.id },
        order: 'wave',
        ...paging(body),
      });
      return { total, list: rows.map((r) => recordAnswer(r.record, r.run)) };
    },

    async deviceRecords(auth: Caller, body: EmergencyDeviceRecordsBody): Promise<EmergencyRecordPage> {
      const filter = await recordFilter(auth, body);
      const { total, rows } = await repo.listRecords({ filter, ...paging(body) });
      return { total, list: rows.map((r) => recordAnswer(r.record, r.run)) };
    },

    /** Checks the filters, then answers the records in batches for the workbook. */
    async report(auth: Caller, body: EmergencyReportBody) {
      const filter = await recordFilter(auth, body);
      return (async function* () {
        for (let offset = 0; ; offset += REPORT_BATCH) {
          const { rows } = await repo.listRecords({ filter, offset, limit: REPORT_BATCH });
          yield rows.map((r) => recordAnswer(r.record, r.run));
          if (rows.length < REPORT_BATCH) return;
        }
      })();
    },

    async logBook(auth: Caller, body: LogBookListBody): Promise<LogBookPage> {
      const project = await access.requireProject(auth, body.projectId);
      const page = await repo.logBook({
        ...logBookFilter(auth, body, project.id),
        order: 'desc',
        ...paging(body),
      });
      return { total: page.total, list: page.rows.map((r) => logBookAnswer(r, page.acks.get(r.id))) };
    },

    /** Checks the project, then answers the site, the period, the totals and the entries for the PDF or workbook. */
    async logBookReport(auth: Caller, body: LogBookReportBody) {
      const project = await access.requireProject(auth, body.projectId);
      const totals = await repo.logBookTotals(logBookFilter(auth, body, project.id));
      const zone = await repo.siteTimeZone({ tenantId: auth.tenantId, projectId: project.id });
      return {
        project,
        totals,
        entries: logBookBatches(auth, body, project.id),
        printedAt: clock.now(),
        timeZone: zone && isTimeZone(zone) ? zone : 'UTC',
      };
    },

    async acknowledge(auth: Caller, body: LogBookAcknowledgeBody): Promise<LogBookAppended> {
      const entry = await repo.logEntry({ tenantId: auth.tenantId, id: toId(body.entryId) });
      if (!entry) denyAccess();
      await access.requireProject(auth, entry.projectId);
      if (entry.type !== 'failure') throw new AppError(100001, 'entryId');
      const by = await deps.nameOf(auth.userId);
      try {
        const [row] = await repo.appendLog([
          {
            tenantId: auth.tenantId,
            projectId: entry.projectId,
            at: clock.now(),
            type: 'acknowledgement',
            deviceId: entry.deviceId,
            deviceName: entry.deviceName,
            addr: entry.addr,
            buildName: entry.buildName,
            mapName: entry.mapName,
            taskName: entry.taskName,
            runId: entry.runId,
            test: entry.test,
            faultCode: entry.faultCode,
            note: body.note ?? '',
            by,
            byUserId: auth.userId,
            refId: entry.id,
          },
        ]);
        return { entry: logBookAnswer(row!, undefined) };
      } catch (err) {
        if (String((err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code) === '23505')
          throw new AppError(100404);
        throw err;
      }
    },

    async repair(auth: Caller, body: LogBookRepairBody): Promise<LogBookAppended> {
      const light = await repo.light({ tenantId: auth.tenantId, id: toId(body.deviceId) });
      if (!light || !seesMap(auth, light.mapId)) denyAccess();
      if (light.projectId === null) throw new AppError(110009);
      await access.requireProject(auth, light.projectId);
      const [row] = await repo.appendLog([
        repairEntry(
          { ...light, projectId: light.projectId },
          { tenantId: auth.tenantId, note: body.note.trim(), by: await deps.nameOf(auth.userId), byUserId: auth.userId, at: clock.now() },
        ),
      ]);
      return { entry: logBookAnswer(row!, undefined) };
    },

    async compliance(auth: Caller, body: ComplianceListBody): Promise<CompliancePage> {
      const project = await access.requireProject(auth, body.projectId);
      const lights = await repo.projectLights({
        tenantId: auth.tenantId,
        projectId: project.id,
        mapIds: auth.scope ? [...auth.scope.mapIds] : undefined,
      });
      const last = lastTestsOf(await repo.lastTests(lights.map((l) => l.id)));
      const repairs = await repo.lastRepairs({ tenantId: auth.tenantId, deviceIds: lights.map((l) => l.id) });
      const iso = (at: Date | null | undefined) => (at ? at.toISOString() : null);
      // A pass is good for its period; a failure asks for a retest at once.
      const dueAt = (t: LastTest | undefined, days: number) => (t ? new Date(t.at.getTime() + (t.passed ? days * DAY_MS : 0)) : null);
      const rows = lights.map((l): ComplianceRow => {
        const { function: fn, life } = last.get(l.id) ?? {};
        const functionOverdue = overdue(fn?.at, EMERGENCY_LIMITS.functionDueDays);
        const lifeOverdue = overdue(life?.at, EMERGENCY_LIMITS.lifeDueDays);
        // A failure stands until a later test of its kind passes; a repair after the latest one awaits that test.
        const failedAt = Math.max(...[fn, life].flatMap((t) => (t && !t.passed ? [t.at.getTime()] : [])));
        const repairedAt = repairs.get(l.id);
        const repaired = repairedAt !== undefined && repairedAt.getTime() > failedAt;
        const state: ComplianceState = Number.isFinite(failedAt)
          ? repaired
            ? 'repaired'
            : 'failed'
          : functionOverdue || lifeOverdue
            ? 'overdue'
            : 'compliant';
        return {
          deviceId: String(l.id),
          name: l.name,
          addr: l.addr,
          buildName: l.buildName,
          mapId: l.mapId === null ? null : String(l.mapId),
          mapName: l.mapName,
          gatewayName: l.gatewayName,
          lastFunctionTestAt: iso(fn?.at),
          lastLifeTestAt: iso(life?.at),
          lastFunctionTestPassed: fn ? fn.passed : null,
          lastLifeTestPassed: life ? life.passed : null,
          functionDueAt: iso(dueAt(fn, EMERGENCY_LIMITS.functionDueDays)),
          lifeDueAt: iso(dueAt(life, EMERGENCY_LIMITS.lifeDueDays)),
          functionOverdue,
          lifeOverdue,
          state,
          repairedAt: state === 'repaired' ? iso(repairedAt) : null,
        };
      });
      // Failed lights first (awaiting repair, then awaiting a retest), then the most overdue: never tested, then the
      // earliest due date.
      const rank: Record<ComplianceState, number> = { failed: 0, repaired: 1, overdue: 2, compliant: 3 };
      const urgency = (r: ComplianceRow) =>
        Math.min(r.functionDueAt ? Date.parse(r.functionDueAt) : 0, r.lifeDueAt ? Date.parse(r.lifeDueAt) : 0);
      const chosen = ((body.overdueOnly ?? true) ? rows.filter((r) => r.state !== 'compliant') : rows).sort(
        (a, b) => rank[a.state] - rank[b.state] || urgency(a) - urgency(b),
      );
      const { offset, limit } = paging(body);
      return {
        total: chosen.length,
        functionOverdue: rows.filter((r) => r.functionOverdue).length,
        lifeOverdue: rows.filter((r) => r.lifeOverdue).length,
        failed: rows.filter((r) => r.state === 'failed' || r.state === 'repaired').length,
        awaitingRepair: rows.filter((r) => r.state === 'failed').length,
        lights: rows.length,
        list: chosen.slice(offset, offset + limit),
      };
    },
  };
}
export type EmergencyService = ReturnType<typeof createEmergencyService>;
