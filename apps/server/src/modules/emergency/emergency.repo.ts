import { DEVICE_FAMILIES } from '@lumigrid/contract';
import type { DeviceState } from '@lumigrid/protocol';
import { and, asc, desc, eq, gte, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { findTenantRow, saveTenantRow } from '../../db/tenant-rows.ts';
import { readPage } from '../../db/page.ts';
import { deviceOnline } from '../devices/devices.mappers.ts';
import { siteTimeZoneSql } from '../projects/site-time-zone.ts';
import {
  buildings,
  emergencyLogBook,
  emergencyRecords,
  emergencyRuns,
  emergencyTaskDevices,
  emergencyTasks,
  mapImages,
  projects,
} from '../../db/schema/index.ts';
import { deviceStatesAnyTenant } from '../device-reports/device-states.ts';
import { devicesAnyTenant } from '../devices/devices.repo.ts';
import { gatewaysAnyTenant } from '../gateways/gateways.repo.ts';
import { mapPlaces } from '../projects/maps.repo.ts';

/** Devices, their reported states, gateways and maps, read through their owners' subqueries. */
const device = devicesAnyTenant('device');
const lastState = deviceStatesAnyTenant('last_state');
const gateway = gatewaysAnyTenant('gateway');
const map = mapPlaces('map');

export type TaskRow = typeof emergencyTasks.$inferSelect;
export type TaskInsert = Omit<typeof emergencyTasks.$inferInsert, 'id'>;
export type RunRow = typeof emergencyRuns.$inferSelect;
export type RecordRow = typeof emergencyRecords.$inferSelect;
export type LogBookRow = typeof emergencyLogBook.$inferSelect;
export type LogBookInsert = Omit<typeof emergencyLogBook.$inferInsert, 'id' | 'seq'>;

const EMERGENCY_TYPES = [...DEVICE_FAMILIES.emergency];

/** A light with where it stands and how it reported last. */
export interface LightRow {
  id: bigint;
  tenantId: bigint;
  gatewayId: bigint;
  mapId: bigint | null;
  name: string;
  addr: string;
  type: number;
  x: number | null;
  y: number | null;
  /** As every device view shows it: offline behind a gateway that is not online, or never reported. */
  online: boolean;
  state: DeviceState | null;
}

/** A light's columns; its presence is worked out from its state and its gateway's (toLight). The query joins gateways. */
const lightColumns = {
  id: device.id,
  tenantId: device.tenantId,
  gatewayId: device.gatewayId,
  mapId: device.mapId,
  name: device.name,
  addr: device.addr,
  x: device.x,
  y: device.y,
  device: { type: device.type, status: device.status, typeStatus: device.typeStatus },
  gatewayOnline: gateway.online,
  reported: { online: lastState.online, fault: lastState.fault, state: lastState.state },
};

/** What lightColumns read, with whatever else a query adds. */
type LightColumnsRow = Omit<LightRow, 'type' | 'online' | 'state'> & {
  device: { type: number; status: string; typeStatus: number };
  gatewayOnline: boolean;
  reported: { online: boolean; fault: number; state: DeviceState } | null;
};

/** A light as the emergency screens show it: online by the rule of every device view (deviceOnline). */
function toLight<R extends LightColumnsRow>(row: R): Omit<R, 'device' | 'gatewayOnline' | 'reported'> & LightRow {
  const { device, gatewayOnline: _gatewayOnline, reported, ...rest } = row;
  return { ...rest, type: device.type, online: deviceOnline(row), state: reported?.state ?? null };
}

/** Filters of the record lists, all optional but the tenant. */
export interface RecordFilter {
  tenantId: bigint;
  projectIds?: bigint[];
  projectId?: bigint;
  taskId?: bigint;
  runId?: bigint;
  deviceId?: bigint;
  from?: Date;
  to?: Date;
}

/** The queries of emergency testing; every one takes the tenant, but those named AnyTenant (the gateway side). */
export function createEmergencyRepo(db: Db) {
  const lights = () =>
    db
      .select(lightColumns)
      .from(device)
      .innerJoin(gateway, eq(gateway.id, device.gatewayId))
      .leftJoin(lastState, and(eq(lastState.gatewayId, device.gatewayId), eq(lastState.addr, device.addr)));

  function recordWhere(f: RecordFilter): SQL {
    return and(
      eq(emergencyRuns.tenantId, f.tenantId),
      f.projectIds ? inArray(emergencyRuns.projectId, f.projectIds) : undefined,
      f.projectId !== undefined ? eq(emergencyRuns.projectId, f.projectId) : undefined,
      f.taskId !== undefined ? eq(emergencyRuns.taskId, f.taskId) : undefined,
      f.runId !== undefined ? eq(emergencyRuns.id, f.runId) : undefined,
      f.deviceId !== undefined ? eq(emergencyRecords.deviceId, f.deviceId) : undefined,
      f.from ? gte(emergencyRuns.startedAt, f.from) : undefined,
      f.to ? lt(emergencyRuns.startedAt, f.to) : undefined,
    )!;
  }

  return {
    /** A gateway of the tenant with its map, building and project, and the map image's aspect ratio. */
    async gatewayPlace(q: { tenantId: bigint; gatewayId: bigint }) {
      const [row] = await db
        .select({
          id: gateway.id,
          mac: gateway.mac,
          name: gateway.name,
          timezone: gateway.timezone,
          mapId: map.id,
          mapName: map.name,
          buildId: buildings.id,
          buildName: buildings.name,
          projectId: projects.id,
          projectName: projects.name,
          imageWidth: mapImages.width,
          imageHeight: mapImages.height,
        })
        .from(gateway)
        .innerJoin(map, eq(map.id, gateway.mapId))
        .innerJoin(buildings, eq(buildings.id, map.buildId))
        .innerJoin(projects, eq(projects.id, map.projectId))
        .leftJoin(mapImages, eq(mapImages.id, map.imageId))
        .where(and(eq(gateway.id, q.gatewayId), eq(gateway.tenantId, q.tenantId)));
      return row;
    },

    /** The emergency lights of a gateway of the tenant, of the ids given (all when none), by name. */
    async gatewayLights(q: { tenantId: bigint; gatewayId: bigint; ids?: bigint[] }): Promise<LightRow[]> {
      const rows = await lights()
        .where(
          and(
            eq(device.tenantId, q.tenantId),
            eq(device.gatewayId, q.gatewayId),
            inArray(device.type, EMERGENCY_TYPES),
            q.ids ? inArray(device.id, q.ids.length > 0 ? q.ids : [-1n]) : undefined,
          ),
        )
        .orderBy(asc(device.name), asc(device.id));
      return rows.map(toLight);
    },

    /** The emergency lights of the tenant on the maps given. */
    async mapLights(q: { tenantId: bigint; mapIds: bigint[] }): Promise<LightRow[]> {
      if (q.mapIds.length === 0) return [];
      const rows = await lights()
        .where(and(eq(device.tenantId, q.tenantId), inArray(device.mapId, q.mapIds), inArray(device.type, EMERGENCY_TYPES)))
        .orderBy(asc(device.name), asc(device.id));
      return rows.map(toLight);
    },

    /** One emergency light of the tenant, with the map and building it stands on. */
    async light(q: {
      tenantId: bigint;
      id: bigint;
    }): Promise<(LightRow & { mapName: string; buildName: string; projectId: bigint | null }) | undefined> {
      const [row] = await db
        .select({
          ...lightColumns,
          mapName: sql<string>`coalesce(${map.name}, '')`,
          buildName: sql<string>`coalesce(${buildings.name}, '')`,
          projectId: map.projectId,
        })
        .from(device)
        .innerJoin(gateway, eq(gateway.id, device.gatewayId))
        .leftJoin(lastState, and(eq(lastState.gatewayId, device.gatewayId), eq(lastState.addr, device.addr)))
        .leftJoin(map, eq(map.id, device.mapId))
        .leftJoin(buildings, eq(buildings.id, map.buildId))
        .where(and(eq(device.tenantId, q.tenantId), eq(device.id, q.id), inArray(device.type, EMERGENCY_TYPES)));
      return row && toLight(row);
    },

    /** The buildings, maps and gateways of a project, for the task form's tree. */
    async projectPlaces(q: { tenantId: bigint; projectId: bigint }) {
      const builds = await db
        .select({ id: buildings.id, name: buildings.name })
        .from(buildings)
        .where(and(eq(buildings.tenantId, q.tenantId), eq(buildings.projectId, q.projectId)))
        .orderBy(asc(buildings.name), asc(buildings.id));
      const mapRows = await db
        .select({ id: map.id, name: map.name, buildId: map.buildId })
        .from(map)
        .where(and(eq(map.tenantId, q.tenantId), eq(map.projectId, q.projectId)))
        .orderBy(asc(map.name), asc(map.id));
      const gatewayRows =
        mapRows.length === 0
          ? []
          : await db
              .select({ id: gateway.id, name: gateway.name, mac: gateway.mac, online: gateway.online, mapId: gateway.mapId })
              .from(gateway)
              .where(
                and(
                  eq(gateway.tenantId, q.tenantId),
                  inArray(
                    gateway.mapId,
                    mapRows.map((m) => m.id),
                  ),
                ),
              )
              .orderBy(asc(gateway.name), asc(gateway.id));
      const lightRows: LightRow[] =
        gatewayRows.length === 0
          ? []
          : await lights()
              .where(
                and(
                  eq(device.tenantId, q.tenantId),
                  inArray(
                    device.gatewayId,
                    gatewayRows.map((g) => g.id),
                  ),
                  inArray(device.type, EMERGENCY_TYPES),
                ),
              )
              .orderBy(asc(device.name), asc(device.id))
              .then((rows) => rows.map(toLight));
      return { builds, maps: mapRows, gateways: gatewayRows, lights: lightRows };
    },

    async nameTaken(q: { tenantId: bigint; name: string; exceptId?: bigint }): Promise<boolean> {
      const [row] = await db
        .select({ id: emergencyTasks.id })
        .from(emergencyTasks)
        .where(and(eq(emergencyTasks.tenantId, q.tenantId), eq(emergencyTasks.name, q.name)));
      return row !== undefined && row.id !== q.exceptId;
    },

    async findTask(q: { tenantId: bigint; id: bigint }): Promise<TaskRow | undefined> {
      return findTenantRow(db, emergencyTasks, q);
    },

    /** A task by id whoever owns it (the job runner). */
    async findTaskAnyTenant(id: bigint): Promise<TaskRow | undefined> {
      const [row] = await db.select().from(emergencyTasks).where(eq(emergencyTasks.id, id));
      return row;
    },

    async taskDeviceIds(taskId: bigint): Promise<bigint[]> {
      const rows = await db
        .select({ id: emergencyTaskDevices.deviceId })
        .from(emergencyTaskDevices)
        .where(eq(emergencyTaskDevices.taskId, taskId));
      return rows.map((r) => r.id);
    },

    /** Creates or replaces a task and its lights in one transaction; answers its id. */
    async saveTask(q: { id?: bigint; values: TaskInsert; deviceIds: bigint[] }): Promise<bigint> {
      return db.transaction(async (tx) => {
        const id = await saveTenantRow(tx, emergencyTasks, { id: q.id, values: q.values });
        if (q.id !== undefined) await tx.delete(emergencyTaskDevices).where(eq(emergencyTaskDevices.taskId, id));
        await tx.insert(emergencyTaskDevices).values(q.deviceIds.map((deviceId) => ({ taskId: id, deviceId })));
        return id;
      });
    },

    async setNextRun(q: { id: bigint; nextRunAt: Date | null }) {
      await db.update(emergencyTasks).set({ nextRunAt: q.nextRunAt }).where(eq(emergencyTasks.id, q.id));
    },

    async deleteTask(q: { tenantId: bigint; id: bigint }) {
      await db.delete(emergencyTasks).where(and(eq(emergencyTasks.tenantId, q.tenantId), eq(emergencyTasks.id, q.id)));
    },

    /** Tasks of the tenant with their place names and their last run, newest first. */
    async listTasks(q: {
      tenantId: bigint;
      id?: bigint;
      projectIds?: bigint[];
      projectId?: bigint;
      name?: string;
      test?: 'function' | 'life';
      status?: string;
      offset: number;
      limit: number;
    }) {
      const lastRun = sql<
        bigint | null
      >`(select r.id from emergency_runs r where r.task_id = "emergency_tasks"."id" order by r.started_at desc, r.id desc limit 1)`;
      const status = sql<string>`coalesce((select r.state from emergency_runs r where r.task_id = "emergency_tasks"."id" order by r.started_at desc, r.id desc limit 1), 'idle')`;
      const where = and(
        eq(emergencyTasks.tenantId, q.tenantId),
        q.id !== undefined ? eq(emergencyTasks.id, q.id) : undefined,
        q.projectIds ? inArray(emergencyTasks.projectId, q.projectIds.length ? q.projectIds : [-1n]) : undefined,
        q.projectId !== undefined ? eq(emergencyTasks.projectId, q.projectId) : undefined,
        q.name ? ilike(emergencyTasks.name, `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
        q.test ? eq(emergencyTasks.test, q.test) : undefined,
        q.status ? sql`${status} = ${q.status}` : undefined,
      );
      const query = db
        .select({
          task: emergencyTasks,
          projectName: projects.name,
          buildName: buildings.name,
          mapName: map.name,
          gatewayName: gateway.name,
          quantity: sql<number>`(select count(*)::int from emergency_task_devices d where d.task_id = "emergency_tasks"."id")`,
          lastRunId: lastRun,
        })
        .from(emergencyTasks)
        .innerJoin(projects, eq(projects.id, emergencyTasks.projectId))
        .innerJoin(buildings, eq(buildings.id, emergencyTasks.buildId))
        .innerJoin(map, eq(map.id, emergencyTasks.mapId))
        .innerJoin(gateway, eq(gateway.id, emergencyTasks.gatewayId))
        .where(where)
        .orderBy(desc(emergencyTasks.createdAt), desc(emergencyTasks.id))
        .$dynamic();
      return readPage(db.$count(emergencyTasks, where), query, q);
    },

    /** Runs, newest first, each with its counts. */
    async listRuns(q: { filter: RecordFilter; test?: 'function' | 'life'; offset: number; limit: number }) {
      const where = and(recordWhere(q.filter), q.test ? eq(emergencyRuns.test, q.test) : undefined);
      const query = db.select().from(emergencyRuns).where(where).orderBy(desc(emergencyRuns.startedAt), desc(emergencyRuns.id)).$dynamic();
      return readPage(db.$count(emergencyRuns, where), query, q);
    },

    async findRun(q: { tenantId: bigint; id: bigint }): Promise<RunRow | undefined> {
      return findTenantRow(db, emergencyRuns, q);
    },

    async findRunAnyTenant(id: bigint): Promise<RunRow | undefined> {
      const [row] = await db.select().from(emergencyRuns).where(eq(emergencyRuns.id, id));
      return row;
    },

    async lastRunOfTask(taskId: bigint): Promise<RunRow | undefined> {
      const [row] = await db
        .select()
        .from(emergencyRuns)
        .where(eq(emergencyRuns.taskId, taskId))
        .orderBy(desc(emergencyRuns.startedAt), desc(emergencyRuns.id))
        .limit(1);
      return row;
    },

    /** Pass/fail/result counts of runs. */
    async runCounts(runIds: bigint[]) {
      if (runIds.length === 0) return new Map<bigint, { total: number; passed: number; failed: number; done: number }>();
      const rows = await db
        .select({
          runId: emergencyRecords.runId,
          total: sql<number>`count(*)::int`,
          passed: sql<number>`count(*) filter (where ${emergencyRecords.passed})::int`,
          failed: sql<number>`count(*) filter (where ${emergencyRecords.faultCode} is not null)::int`,
          done: sql<number>`count(*) filter (where ${emergencyRecords.finishedAt} is not null)::int`,
        })
        .from(emergencyRecords)
        .where(inArray(emergencyRecords.runId, runIds))
        .groupBy(emergencyRecords.runId);
      return new Map(rows.map((r) => [r.runId, r]));
    },

    async insertRun(
      run: Omit<typeof emergencyRuns.$inferInsert, 'id'>,
      records: Omit<typeof emergencyRecords.$inferInsert, 'id' | 'runId'>[],
    ) {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(emergencyRuns).values(run).returning();
        if (records.length > 0) await tx.insert(emergencyRecords).values(records.map((r) => ({ ...r, runId: row!.id })));
        return row!;
      });
    },

    /** Moves a run on only from the state it was read in, so two nodes or a stale job cannot both move it. */
    async updateRun(q: { id: bigint; expectWave?: number; values: Partial<typeof emergencyRuns.$inferInsert> }): Promise<boolean> {
      const rows = await db
        .update(emergencyRuns)
        .set(q.values)
        .where(
          and(
            eq(emergencyRuns.id, q.id),
            eq(emergencyRuns.state, 'running'),
            q.expectWave !== undefined ? eq(emergencyRuns.currentWave, q.expectWave) : undefined,
          ),
        )
        .returning({ id: emergencyRuns.id });
      return rows.length > 0;
    },

    /** The records of a run, with the light's live state, by wave and name. */
    async runRecords(runId: bigint) {
      return db
        .select({ record: emergencyRecords, live: lastState.state })
        .from(emergencyRecords)
        .leftJoin(lastState, and(eq(lastState.gatewayId, emergencyRecords.gatewayId), eq(lastState.addr, emergencyRecords.addr)))
        .where(eq(emergencyRecords.runId, runId))
        .orderBy(asc(emergencyRecords.wave), asc(emergencyRecords.deviceName), asc(emergencyRecords.id));
    },

    /** Records the filters take with their run, newest run first (pages, and the report in batches). */
    async listRecords(q: { filter: RecordFilter; offset: number; limit: number; order?: 'newest' | 'wave' }) {
      const where = recordWhere(q.filter);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(emergencyRecords)
        .innerJoin(emergencyRuns, eq(emergencyRuns.id, emergencyRecords.runId))
        .where(where);
      const query = db
        .select({ record: emergencyRecords, run: emergencyRuns })
        .from(emergencyRecords)
        .innerJoin(emergencyRuns, eq(emergencyRuns.id, emergencyRecords.runId))
        .where(where)
        .orderBy(
          ...(q.order === 'wave'
            ? [asc(emergencyRecords.wave), asc(emergencyRecords.deviceName), asc(emergencyRecords.id)]
            : [desc(emergencyRuns.startedAt), desc(emergencyRuns.id), asc(emergencyRecords.deviceName), asc(emergencyRecords.id)]),
        )
        .$dynamic();
      return readPage(count?.n ?? 0, query, q);
    },

    /** Marks a wave's records started (the lights the gateway took) or refused. */
    async startRecords(q: { runId: bigint; addrs: string[]; at: Date }) {
      if (q.addrs.length === 0) return;
      await db
        .update(emergencyRecords)
        .set({ startedAt: q.at, progress: 0, result: null })
        .where(and(eq(emergencyRecords.runId, q.runId), inArray(emergencyRecords.addr, q.addrs), isNull(emergencyRecords.finishedAt)));
    },

    /**
     * Writes a light's progress or outcome if its record is still open; answers the record as written, or undefined
     * when it was already closed (a late event, a redelivery).
     */
    async updateOpenRecord(q: { id: bigint; values: Partial<typeof emergencyRecords.$inferInsert> }): Promise<RecordRow | undefined> {
      const [row] = await db
        .update(emergencyRecords)
        .set(q.values)
        .where(and(eq(emergencyRecords.id, q.id), isNull(emergencyRecords.finishedAt)))
        .returning();
      return row;
    },

    /** The open record of a light in a running run, by the gateway's MAC and the light's address (the gateway side). */
    async openRecordAnyTenant(q: { mac: string; addr: string }) {
      const [row] = await db
        .select({ record: emergencyRecords, run: emergencyRuns })
        .from(emergencyRecords)
        .innerJoin(emergencyRuns, eq(emergencyRuns.id, emergencyRecords.runId))
        .innerJoin(gateway, eq(gateway.id, emergencyRecords.gatewayId))
        .where(
          and(
            eq(gateway.mac, q.mac),
            eq(emergencyRecords.addr, q.addr),
            isNull(emergencyRecords.finishedAt),
            eq(emergencyRuns.state, 'running'),
          ),
        )
        .orderBy(desc(emergencyRecords.id))
        .limit(1);
      return row;
    },

    async recordById(id: bigint): Promise<RecordRow | undefined> {
      const [row] = await db.select().from(emergencyRecords).where(eq(emergencyRecords.id, id));
      return row;
    },

    /** A light of a gateway by MAC and address, with its map (live messages of lights outside any run). */
    async lightByAddrAnyTenant(q: { mac: string; addr: string }) {
      const [row] = await db
        .select({ id: device.id, mapId: device.mapId, type: device.type })
        .from(device)
        .innerJoin(gateway, eq(gateway.id, device.gatewayId))
        .where(and(eq(gateway.mac, q.mac), eq(device.addr, q.addr), inArray(device.type, EMERGENCY_TYPES)));
      return row;
    },

    /** A gateway and its placed emergency lights, by MAC (the live topic; the gateway side). */
    async placedLightsAnyTenant(mac: string) {
      const [found] = await db.select({ id: gateway.id }).from(gateway).where(eq(gateway.mac, mac));
      if (!found) return undefined;
      const rows = await db
        .select({ id: device.id, addr: device.addr, mapId: device.mapId })
        .from(device)
        .where(and(eq(device.gatewayId, found.id), inArray(device.type, EMERGENCY_TYPES), sql`${device.mapId} is not null`));
      return { gatewayId: found.id, lights: rows };
    },

    /** Lights of other runs testing now (busy in the tree). */
    async busyDeviceIds(q: { tenantId: bigint; exceptTaskId?: bigint }): Promise<Set<bigint>> {
      const rows = await db
        .select({ id: emergencyRecords.deviceId })
        .from(emergencyRecords)
        .innerJoin(emergencyRuns, eq(emergencyRuns.id, emergencyRecords.runId))
        .where(
          and(
            eq(emergencyRuns.tenantId, q.tenantId),
            eq(emergencyRuns.state, 'running'),
            isNull(emergencyRecords.finishedAt),
            q.exceptTaskId !== undefined ? or(isNull(emergencyRuns.taskId), sql`${emergencyRuns.taskId} <> ${q.exceptTaskId}`) : undefined,
          ),
        );
      return new Set(rows.flatMap((r) => (r.id === null ? [] : [r.id])));
    },

    /**
     * When a life test may next start on a gateway (its circuit): 24 h after the last life test there ended, or after
     * one running there would end; null when nothing holds it back.
     */
    async lifeRestUntil(q: { gatewayId: bigint; exceptRunId: bigint; restMs: number }): Promise<Date | null> {
      const [row] = await db
        .select({
          ended: sql<string | null>`max(${emergencyRecords.finishedAt})`,
          running: sql<
            string | null
          >`max(${emergencyRecords.startedAt} + make_interval(secs => ${emergencyRuns.durationS})) filter (where ${emergencyRecords.finishedAt} is null)`,
        })
        .from(emergencyRecords)
        .innerJoin(emergencyRuns, eq(emergencyRuns.id, emergencyRecords.runId))
        .where(
          and(
            eq(emergencyRecords.gatewayId, q.gatewayId),
            eq(emergencyRecords.test, 'life'),
            sql`${emergencyRecords.startedAt} is not null`,
            or(sql`${emergencyRecords.runId} <> ${q.exceptRunId}`, sql`${emergencyRecords.finishedAt} is not null`),
          ),
        );
      const times = [row?.ended, row?.running].filter((t): t is string => !!t).map((t) => new Date(t).getTime());
      return times.length === 0 ? null : new Date(Math.max(...times) + q.restMs);
    },

    /** The last function and life test with a result of each light (compliance, the map). */
    async lastTests(deviceIds: bigint[]) {
      if (deviceIds.length === 0) return [];
      return db
        .select({
          deviceId: emergencyRecords.deviceId,
          test: emergencyRecords.test,
          at: sql<string>`max(${emergencyRecords.finishedAt})`,
          // The last one's outcome and run: the max of "time|passed|run" strings of the same width.
          last: sql<string>`max(to_char(${emergencyRecords.finishedAt} at time zone 'UTC', 'YYYYMMDDHH24MISSUS') || '|' || ${emergencyRecords.passed}::text || '|' || ${emergencyRecords.runId}::text)`,
        })
        .from(emergencyRecords)
        .where(
          and(
            inArray(emergencyRecords.deviceId, deviceIds),
            sql`${emergencyRecords.passed} is not null`,
            sql`${emergencyRecords.finishedAt} is not null`,
            // A test with a result: passed, or failed by the light (not refused, stopped or silent).
            or(eq(emergencyRecords.passed, true), sql`${emergencyRecords.faultCode} in (6, 7, 8)`),
          ),
        )
        .groupBy(emergencyRecords.deviceId, emergencyRecords.test);
    },

    /**
     * Appends to a project's log book, numbering entries without gaps (retried on a concurrent append). Each attempt
     * is a transaction of its own, a savepoint inside a caller's, so a retry also works within another domain's
     * transaction (an alert handled with a note).
     */
    async appendLog(entries: LogBookInsert[]): Promise<LogBookRow[]> {
      const written: LogBookRow[] = [];
      for (const entry of entries) {
        for (let attempt = 0; ; attempt++) {
          try {
            const [row] = await db.transaction((tx) =>
              tx
                .insert(emergencyLogBook)
                .values({
                  ...entry,
                  seq: sql`(select coalesce(max(seq), 0) + 1 from emergency_log_book where project_id = ${entry.projectId})`,
                })
                .returning(),
            );
            written.push(row!);
            break;
          } catch (err) {
            if (
              attempt >= 5 ||
              !String((err as { cause?: { code?: string }; code?: string }).cause?.code ?? (err as { code?: string }).code).startsWith(
                '23505',
              )
            )
              throw err;
          }
        }
      }
      return written;
    },

    async logEntry(q: { tenantId: bigint; id: bigint }): Promise<LogBookRow | undefined> {
      return findTenantRow(db, emergencyLogBook, q);
    },

    /** A project's log book with each failure's acknowledgement. */
    async logBook(q: {
      tenantId: bigint;
      projectId: bigint;
      type?: string;
      from?: Date;
      to?: Date;
      order: 'asc' | 'desc';
      offset: number;
      limit: number;
    }) {
      const where = and(
        eq(emergencyLogBook.tenantId, q.tenantId),
        eq(emergencyLogBook.projectId, q.projectId),
        q.type ? eq(emergencyLogBook.type, q.type as LogBookRow['type']) : undefined,
        q.from ? gte(emergencyLogBook.at, q.from) : undefined,
        q.to ? lt(emergencyLogBook.at, q.to) : undefined,
      );
      const query = db
        .select()
        .from(emergencyLogBook)
        .where(where)
        .orderBy(q.order === 'asc' ? asc(emergencyLogBook.seq) : desc(emergencyLogBook.seq))
        .$dynamic();
      const { total, rows } = await readPage(db.$count(emergencyLogBook, where), query, q);
      const failures = rows.filter((r) => r.type === 'failure').map((r) => r.id);
      const acks =
        failures.length === 0
          ? []
          : await db
              .select()
              .from(emergencyLogBook)
              .where(and(eq(emergencyLogBook.type, 'acknowledgement'), inArray(emergencyLogBook.refId, failures)));
      return { total, rows, acks: new Map(acks.map((a) => [a.refId!, a])) };
    },

    /** The last repair recorded in the log book of each of these lights of the tenant (compliance). */
    async lastRepairs(q: { tenantId: bigint; deviceIds: bigint[] }): Promise<Map<bigint, Date>> {
      if (q.deviceIds.length === 0) return new Map();
      const rows = await db
        .select({ deviceId: emergencyLogBook.deviceId, at: sql<string>`max(${emergencyLogBook.at})` })
        .from(emergencyLogBook)
        .where(
          and(
            eq(emergencyLogBook.tenantId, q.tenantId),
            eq(emergencyLogBook.type, 'repair'),
            inArray(emergencyLogBook.deviceId, q.deviceIds),
          ),
        )
        .groupBy(emergencyLogBook.deviceId);
      return new Map(rows.flatMap((r) => (r.deviceId === null ? [] : [[r.deviceId, new Date(r.at)] as const])));
    },

    /** The site's time zone (`siteTimeZoneSql`), or null when none of its gateways has one. */
    async siteTimeZone(q: { tenantId: bigint; projectId: bigint }): Promise<string | null> {
      const [row] = await db
        .select({ zone: siteTimeZoneSql({ gateways: gatewaysAnyTenant }, q) })
        .from(projects)
        .where(and(eq(projects.tenantId, q.tenantId), eq(projects.id, q.projectId)));
      return row?.zone ?? null;
    },

    /** Counts of a project's log book by type over a period (the PDF's totals). */
    async logBookTotals(q: { tenantId: bigint; projectId: bigint; type?: string; from?: Date; to?: Date }) {
      const rows = await db
        .select({ type: emergencyLogBook.type, result: emergencyLogBook.result, n: sql<number>`count(*)::int` })
        .from(emergencyLogBook)
        .where(
          and(
            eq(emergencyLogBook.tenantId, q.tenantId),
            eq(emergencyLogBook.projectId, q.projectId),
            q.type ? eq(emergencyLogBook.type, q.type as LogBookRow['type']) : undefined,
            q.from ? gte(emergencyLogBook.at, q.from) : undefined,
            q.to ? lt(emergencyLogBook.at, q.to) : undefined,
          ),
        )
        .groupBy(emergencyLogBook.type, emergencyLogBook.result);
      return rows;
    },

    /** Emergency lights of a project with their place names (compliance). */
    async projectLights(q: { tenantId: bigint; projectId: bigint; mapIds?: bigint[] }) {
      return db
        .select({
          id: device.id,
          name: device.name,
          addr: device.addr,
          mapId: device.mapId,
          mapName: map.name,
          buildName: buildings.name,
          gatewayName: gateway.name,
        })
        .from(device)
        .innerJoin(map, eq(map.id, device.mapId))
        .innerJoin(buildings, eq(buildings.id, map.buildId))
        .innerJoin(gateway, eq(gateway.id, device.gatewayId))
        .where(
          and(
            eq(device.tenantId, q.tenantId),
            eq(map.projectId, q.projectId),
            inArray(device.type, EMERGENCY_TYPES),
            q.mapIds ? inArray(device.mapId, q.mapIds.length ? q.mapIds : [-1n]) : undefined,
          ),
        )
        .orderBy(asc(buildings.name), asc(map.name), asc(device.name), asc(device.id));
    },
  };
}
export type EmergencyRepo = ReturnType<typeof createEmergencyRepo>;
