import { SYNC_STATUS, type SceneAction } from '@lumigrid/contract';
import type { SceneRules } from './scene-config.ts';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, ne, sql, TransactionRollbackError, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { findTenantRow, saveTenantRow } from '../../db/tenant-rows.ts';
import { readPage, type PageWindow } from '../../db/page.ts';
import {
  gateways,
  groups,
  projectHolidays,
  projectSceneSettings,
  sceneMembers,
  scenePanelKeys,
  sceneParts,
  sceneRuns,
  scenes,
  sensorLinkages,
} from '../../db/schema/index.ts';
import { devicesAnyTenant } from '../devices/devices.repo.ts';
import { mapPlaces } from '../projects/maps.repo.ts';

/** A scene as stored: its rules, its account and project, and a sequence's number. */
export interface SceneRecord extends SceneRules {
  tenantId: bigint;
  projectId: bigint;
  sequenceNo: number | null;
}

export interface MemberRecord {
  step: number;
  position: number;
  deviceId: bigint | null;
  groupId: bigint | null;
  action: SceneAction;
}

/** One run outcome of one gateway. */
export interface RunRecord {
  tenantId: bigint;
  sceneId: bigint;
  gatewayId: bigint;
  runKey: string;
  trigger: string;
  then: string;
  code: number;
  targets: number;
  failed: number;
  ranAt: Date;
}

const ESCAPE_LIKE = /[\\%_]/g;

/** Devices and maps, read through their owners' subqueries. */
const device = devicesAnyTenant('device');
const map = mapPlaces('map');

interface SceneFilter {
  tenantId: bigint;
  projectId: bigint;
  name?: string;
  kind?: string;
}

/**
 * Queries of scenes, their members, parts, runs, panel keys and the project's scene settings. Every query
 * takes the tenant; members, parts and gateways are read joined to their own tables (read only).
 */
export function createScenesRepo(db: Db) {
  const sceneFilter = (q: SceneFilter) =>
    and(
      eq(scenes.tenantId, q.tenantId),
      eq(scenes.projectId, q.projectId),
      q.name ? ilike(scenes.name, `%${q.name.replace(ESCAPE_LIKE, (c) => `\\${c}`)}%`) : undefined,
      q.kind ? eq(scenes.kind, q.kind) : undefined,
    );
  const sceneList = (q: SceneFilter) =>
    db.select().from(scenes).where(sceneFilter(q)).orderBy(desc(scenes.createdAt), desc(scenes.id)).$dynamic();

  return {
    async find(q: { tenantId: bigint; id: bigint }) {
      return findTenantRow(db, scenes, q);
    },

    /** Every scene the filters take, newest first. */
    async list(q: SceneFilter) {
      return sceneList(q);
    },

    async page(q: SceneFilter & PageWindow) {
      return readPage(db.$count(scenes, sceneFilter(q)), sceneList(q), q);
    },

    async ofProject(q: { tenantId: bigint; projectId: bigint; kinds?: readonly string[] }) {
      return db
        .select()
        .from(scenes)
        .where(
          and(eq(scenes.tenantId, q.tenantId), eq(scenes.projectId, q.projectId), q.kinds ? inArray(scenes.kind, [...q.kinds]) : undefined),
        )
        .orderBy(asc(scenes.name));
    },

    async nameTaken(q: { projectId: bigint; name: string; exceptId?: bigint }): Promise<boolean> {
      const rows = await db
        .select({ id: scenes.id })
        .from(scenes)
        .where(
          and(eq(scenes.projectId, q.projectId), eq(scenes.name, q.name), q.exceptId === undefined ? undefined : ne(scenes.id, q.exceptId)),
        )
        .limit(1);
      return rows.length > 0;
    },

    /** The members of scenes with what each is: device or group, its gateway, map, name and radio address. */
    async members(q: { tenantId: bigint; sceneIds: bigint[] }) {
      if (q.sceneIds.length === 0) return [];
      return db
        .select({
          sceneId: sceneMembers.sceneId,
          step: sceneMembers.step,
          position: sceneMembers.position,
          deviceId: sceneMembers.deviceId,
          groupId: sceneMembers.groupId,
          action: sceneMembers.action,
          deviceName: device.name,
          deviceType: device.type,
          addr: device.addr,
          groupName: groups.name,
          groupNumber: groups.number,
          gatewayId: sql<bigint>`coalesce(${device.gatewayId}, ${groups.gatewayId})`.mapWith((v: string | number | bigint) => BigInt(v)),
          mapId: sql<bigint | null>`coalesce(${device.mapId}, ${groups.mapId})`.mapWith((v: string | number | bigint) => BigInt(v)),
        })
        .from(sceneMembers)
        .innerJoin(scenes, eq(scenes.id, sceneMembers.sceneId))
        .leftJoin(device, eq(device.id, sceneMembers.deviceId))
        .leftJoin(groups, eq(groups.id, sceneMembers.groupId))
        .where(and(eq(scenes.tenantId, q.tenantId), inArray(sceneMembers.sceneId, q.sceneIds)))
        .orderBy(asc(sceneMembers.sceneId), asc(sceneMembers.step), asc(sceneMembers.position));
    },

    /** The parts of scenes with their gateways' state and place. */
    async parts(q: { tenantId: bigint; sceneIds: bigint[] }) {
      if (q.sceneIds.length === 0) return [];
      return db
        .select({
          id: sceneParts.id,
          sceneId: sceneParts.sceneId,
          gatewayId: sceneParts.gatewayId,
          number: sceneParts.number,
          version: sceneParts.version,
          gatewayName: gateways.name,
          mac: gateways.mac,
          online: gateways.online,
          syncedVersion: gateways.syncedVersion,
          latitude: gateways.latitude,
          longitude: gateways.longitude,
          timezone: gateways.timezone,
          projectId: map.projectId,
        })
        .from(sceneParts)
        .innerJoin(gateways, and(eq(gateways.id, sceneParts.gatewayId), eq(gateways.tenantId, sceneParts.tenantId)))
        .leftJoin(map, eq(map.id, gateways.mapId))
        .where(and(eq(sceneParts.tenantId, q.tenantId), inArray(sceneParts.sceneId, q.sceneIds)))
        .orderBy(asc(gateways.name), asc(gateways.id));
    },

    async part(q: { tenantId: bigint; id: bigint }) {
      return findTenantRow(db, sceneParts, q);
    },

    /** Devices of the tenant as scene members: type, gateway, map, project. */
    async deviceFacts(q: { tenantId: bigint; ids: bigint[] }) {
      if (q.ids.length === 0) return [];
      return db
        .select({ id: device.id, type: device.type, gatewayId: device.gatewayId, mapId: device.mapId, projectId: map.projectId })
        .from(device)
        .leftJoin(map, eq(map.id, device.mapId))
        .where(and(eq(device.tenantId, q.tenantId), inArray(device.id, q.ids)));
    },

    /** Groups of the tenant as scene members, with their member types. */
    async groupFacts(q: { tenantId: bigint; ids: bigint[] }) {
      if (q.ids.length === 0) return [];
      return db
        .select({
          id: groups.id,
          gatewayId: groups.gatewayId,
          mapId: groups.mapId,
          projectId: map.projectId,
          types: sql<
            number[]
          >`coalesce((select array_agg(d.type) from group_devices gd join ${devicesAnyTenant()} on d.id = gd.device_id where gd.group_id = ${groups.id}), '{}')`,
        })
        .from(groups)
        .innerJoin(map, eq(map.id, groups.mapId))
        .where(and(eq(groups.tenantId, q.tenantId), inArray(groups.id, q.ids)));
    },

    /** Gateways of the tenant with their location, for the sun-time rule; in id order, so a scene's sync results come in a stable order. */
    async gateways(q: { tenantId: bigint; ids: bigint[] }) {
      if (q.ids.length === 0) return [];
      return db
        .select({
          id: gateways.id,
          name: gateways.name,
          mac: gateways.mac,
          online: gateways.online,
          latitude: gateways.latitude,
          longitude: gateways.longitude,
          timezone: gateways.timezone,
          configVersion: gateways.configVersion,
          syncedVersion: gateways.syncedVersion,
        })
        .from(gateways)
        .where(and(eq(gateways.tenantId, q.tenantId), inArray(gateways.id, q.ids)))
        .orderBy(asc(gateways.id));
    },

    async gatewayByMac(mac: string) {
      const [row] = await db
        .select({ id: gateways.id, tenantId: gateways.tenantId })
        .from(gateways)
        .where(and(eq(gateways.mac, mac), isNotNull(gateways.tenantId)))
        .limit(1);
      return row;
    },

    /** Scene parts each gateway holds, by gateway. */
    async partCounts(q: { gatewayIds: bigint[]; exceptSceneId?: bigint }): Promise<Map<bigint, number>> {
      if (q.gatewayIds.length === 0) return new Map();
      const rows = await db
        .select({ gatewayId: sceneParts.gatewayId, n: count() })
        .from(sceneParts)
        .where(
          and(
            inArray(sceneParts.gatewayId, q.gatewayIds),
            q.exceptSceneId === undefined ? undefined : ne(sceneParts.sceneId, q.exceptSceneId),
          ),
        )
        .groupBy(sceneParts.gatewayId);
      return new Map(rows.map((r) => [r.gatewayId, r.n]));
    },

    /**
     * Writes a scene (new when id is absent), its members and its parts in one transaction: parts of gateways
     * the scene keeps keep their numbers; new gateways get the lowest free number. Answers the scene id and the
     * gateways whose part was added, changed or removed.
     */
    async save(q: {
      id?: bigint;
      scene: SceneRecord;
      members: MemberRecord[];
      gatewayIds: bigint[];
      /** The part number for a gateway from its used numbers; throws when the gateway is full. */
      allocate: (used: number[]) => number;
    }): Promise<{ id: bigint; touched: bigint[] }> {
      return db.transaction(async (tx) => {
        const id = await saveTenantRow(tx, scenes, { id: q.id, values: q.scene });
        if (q.id !== undefined) await tx.delete(sceneMembers).where(eq(sceneMembers.sceneId, id));
        if (q.members.length) await tx.insert(sceneMembers).values(q.members.map((m) => ({ ...m, sceneId: id })));
        const existing = await tx.select().from(sceneParts).where(eq(sceneParts.sceneId, id));
        const keep = new Set(q.gatewayIds);
        const dropped = existing.filter((p) => !keep.has(p.gatewayId));
        if (dropped.length)
          await tx.delete(sceneParts).where(
            inArray(
              sceneParts.id,
              dropped.map((p) => p.id),
            ),
          );
        for (const gatewayId of q.gatewayIds) {
          if (existing.some((p) => p.gatewayId === gatewayId)) continue;
          // Locks the gateway's part numbers against a concurrent save on the same gateway.
          await tx.execute(sql`select pg_advisory_xact_lock(${gatewayId})`);
          const used = await tx.select({ n: sceneParts.number }).from(sceneParts).where(eq(sceneParts.gatewayId, gatewayId));
          const number = q.allocate(used.map((u) => u.n));
          await tx.insert(sceneParts).values({ tenantId: q.scene.tenantId, sceneId: id, gatewayId, number });
        }
        return { id, touched: [...new Set([...q.gatewayIds, ...dropped.map((p) => p.gatewayId)])] };
      });
    },

    /** The configuration version that first carries each part as it is now. */
    async setPartVersions(q: { sceneId: bigint; versions: Map<bigint, number> }) {
      for (const [gatewayId, version] of q.versions)
        await db
          .update(sceneParts)
          .set({ version })
          .where(and(eq(sceneParts.sceneId, q.sceneId), eq(sceneParts.gatewayId, gatewayId)));
    },

    async remove(q: { tenantId: bigint; id: bigint }) {
      await db.delete(scenes).where(and(eq(scenes.tenantId, q.tenantId), eq(scenes.id, q.id)));
    },

    async setImage(q: { tenantId: bigint; id: bigint; image: string | null }) {
      await db
        .update(scenes)
        .set({ image: q.image })
        .where(and(eq(scenes.tenantId, q.tenantId), eq(scenes.id, q.id)));
    },

    /** Removes a part and the scene's members on its gateway; the scene goes with its last part. */
    async removePart(q: {
      tenantId: bigint;
      partId: bigint;
      sceneId: bigint;
      gatewayId: bigint;
    }): Promise<{ image: string | null } | null> {
      return db.transaction(async (tx) => {
        await tx.delete(sceneParts).where(and(eq(sceneParts.tenantId, q.tenantId), eq(sceneParts.id, q.partId)));
        await tx.execute(sql`
          delete from scene_members m
          where m.scene_id = ${q.sceneId}
            and coalesce((select d.gateway_id from ${devicesAnyTenant()} where d.id = m.device_id), (select g.gateway_id from groups g where g.id = m.group_id)) = ${q.gatewayId}`);
        const [left] = await tx.select({ n: count() }).from(sceneParts).where(eq(sceneParts.sceneId, q.sceneId));
        if (left?.n) return null;
        const [gone] = await tx.delete(scenes).where(eq(scenes.id, q.sceneId)).returning({ image: scenes.image });
        return gone ?? null;
      });
    },

    async partByNumber(q: { gatewayId: bigint; number: number }) {
      const [row] = await db
        .select({ sceneId: sceneParts.sceneId, tenantId: sceneParts.tenantId, projectId: scenes.projectId, sceneName: scenes.name })
        .from(sceneParts)
        .innerJoin(scenes, eq(scenes.id, sceneParts.sceneId))
        .where(and(eq(sceneParts.gatewayId, q.gatewayId), eq(sceneParts.number, q.number)))
        .limit(1);
      return row;
    },

    /** Records run outcomes; a run already recorded (a redelivered report) is left as it is. */
    async insertRuns(rows: RunRecord[]) {
      if (rows.length) await db.insert(sceneRuns).values(rows).onConflictDoNothing();
    },

    /** The newest runs of scenes (every gateway's row of each scene's latest run). */
    async latestRuns(q: { tenantId: bigint; sceneIds: bigint[] }) {
      if (q.sceneIds.length === 0) return [];
      const latest = db
        .selectDistinctOn([sceneRuns.sceneId], { sceneId: sceneRuns.sceneId, runKey: sceneRuns.runKey })
        .from(sceneRuns)
        .where(and(eq(sceneRuns.tenantId, q.tenantId), inArray(sceneRuns.sceneId, q.sceneIds)))
        .orderBy(sceneRuns.sceneId, desc(sceneRuns.ranAt), desc(sceneRuns.id))
        .as('latest');
      return db
        .select({ run: sceneRuns, gatewayName: gateways.name })
        .from(sceneRuns)
        .innerJoin(latest, and(eq(latest.sceneId, sceneRuns.sceneId), eq(latest.runKey, sceneRuns.runKey)))
        .innerJoin(gateways, eq(gateways.id, sceneRuns.gatewayId))
        .orderBy(asc(gateways.name));
    },

    /** A page of a scene's runs, newest first, each with every gateway's row. */
    async runs(q: { tenantId: bigint; sceneId: bigint; offset: number; limit: number }) {
      const keys = db
        .select({ runKey: sceneRuns.runKey, at: sql<Date>`max(${sceneRuns.ranAt})`.as('at') })
        .from(sceneRuns)
        .where(and(eq(sceneRuns.tenantId, q.tenantId), eq(sceneRuns.sceneId, q.sceneId)))
        .groupBy(sceneRuns.runKey)
        .orderBy(desc(sql`max(${sceneRuns.ranAt})`))
        .limit(q.limit)
        .offset(q.offset)
        .as('keys');
      const rows = await db
        .select({ run: sceneRuns, gatewayName: gateways.name })
        .from(sceneRuns)
        .innerJoin(keys, eq(keys.runKey, sceneRuns.runKey))
        .innerJoin(gateways, eq(gateways.id, sceneRuns.gatewayId))
        .where(eq(sceneRuns.sceneId, q.sceneId))
        .orderBy(desc(sceneRuns.ranAt), asc(gateways.name));
      const [total] = await db
        .select({ n: sql<number>`count(distinct ${sceneRuns.runKey})::int` })
        .from(sceneRuns)
        .where(and(eq(sceneRuns.tenantId, q.tenantId), eq(sceneRuns.sceneId, q.sceneId)));
      return { rows, total: total?.n ?? 0 };
    },

    /** Everything a gateway's configuration needs of scenes: its parts with their scenes and members here. */
    async gatewayParts(q: { tenantId: bigint; gatewayId: bigint }) {
      const parts = await db
        .select({ part: sceneParts, scene: scenes })
        .from(sceneParts)
        .innerJoin(scenes, eq(scenes.id, sceneParts.sceneId))
        .where(and(eq(sceneParts.tenantId, q.tenantId), eq(sceneParts.gatewayId, q.gatewayId)))
        .orderBy(asc(sceneParts.number));
      const members =
        parts.length === 0
          ? []
          : await db
              .select({
                sceneId: sceneMembers.sceneId,
                step: sceneMembers.step,
                action: sceneMembers.action,
                addr: device.addr,
                groupNumber: groups.number,
              })
              .from(sceneMembers)
              .leftJoin(device, and(eq(device.id, sceneMembers.deviceId), eq(device.gatewayId, q.gatewayId)))
              .leftJoin(groups, and(eq(groups.id, sceneMembers.groupId), eq(groups.gatewayId, q.gatewayId)))
              .where(
                inArray(
                  sceneMembers.sceneId,
                  parts.map((p) => p.scene.id),
                ),
              )
              .orderBy(asc(sceneMembers.sceneId), asc(sceneMembers.step), asc(sceneMembers.position));
      return { parts, members: members.filter((m) => m.addr !== null || m.groupNumber !== null) };
    },

    /** The project a gateway stands in (through its map), or null. */
    async gatewayProject(q: { tenantId: bigint; gatewayId: bigint }): Promise<bigint | null> {
      const [row] = await db
        .select({ projectId: map.projectId })
        .from(gateways)
        .innerJoin(map, eq(map.id, gateways.mapId))
        .where(and(eq(gateways.tenantId, q.tenantId), eq(gateways.id, q.gatewayId)));
      return row?.projectId ?? null;
    },

    /** The gateways standing in a project and those holding parts of its scenes. */
    async projectGateways(q: { tenantId: bigint; projectId: bigint }): Promise<bigint[]> {
      const rows = await db
        .select({ id: gateways.id })
        .from(gateways)
        .innerJoin(map, eq(map.id, gateways.mapId))
        .where(and(eq(gateways.tenantId, q.tenantId), eq(map.projectId, q.projectId)));
      return rows.map((r) => r.id);
    },

    async settings(q: { projectId: bigint }) {
      const holidays = await db
        .select({ date: projectHolidays.date, name: projectHolidays.name })
        .from(projectHolidays)
        .where(eq(projectHolidays.projectId, q.projectId))
        .orderBy(asc(projectHolidays.date));
      const [row] = await db.select().from(projectSceneSettings).where(eq(projectSceneSettings.projectId, q.projectId));
      return { holidays, overrideMin: row?.overrideMin ?? 0 };
    },

    async saveSettings(q: { projectId: bigint; holidays: Array<{ date: string; name: string }>; overrideMin: number }) {
      await db.transaction(async (tx) => {
        await tx.delete(projectHolidays).where(eq(projectHolidays.projectId, q.projectId));
        if (q.holidays.length) await tx.insert(projectHolidays).values(q.holidays.map((h) => ({ ...h, projectId: q.projectId })));
        await tx
          .insert(projectSceneSettings)
          .values({ projectId: q.projectId, overrideMin: q.overrideMin })
          .onConflictDoUpdate({ target: projectSceneSettings.projectId, set: { overrideMin: q.overrideMin } });
      });
    },

    /** The keys of a panel with their scenes. */
    async panelKeys(q: { panelId: bigint }) {
      return db
        .select({ key: scenePanelKeys.key, sceneId: scenes.id, sceneName: scenes.name })
        .from(scenePanelKeys)
        .innerJoin(scenes, eq(scenes.id, scenePanelKeys.sceneId))
        .where(eq(scenePanelKeys.panelId, q.panelId))
        .orderBy(asc(scenePanelKeys.key));
    },

    async bindPanelKey(q: { panelId: bigint; key: number; sceneId: bigint | null }) {
      if (q.sceneId === null) {
        await db.delete(scenePanelKeys).where(and(eq(scenePanelKeys.panelId, q.panelId), eq(scenePanelKeys.key, q.key)));
        return;
      }
      await db
        .insert(scenePanelKeys)
        .values({ panelId: q.panelId, key: q.key, sceneId: q.sceneId })
        .onConflictDoUpdate({ target: [scenePanelKeys.panelId, scenePanelKeys.key], set: { sceneId: q.sceneId } });
    },

    /** The panel keys of a gateway's panels, each with the part number of its scene on that gateway. */
    async gatewayPanelKeys(q: { gatewayId: bigint }) {
      return db
        .select({ panel: device.addr, key: scenePanelKeys.key, number: sceneParts.number })
        .from(scenePanelKeys)
        .innerJoin(device, eq(device.id, scenePanelKeys.panelId))
        .innerJoin(sceneParts, and(eq(sceneParts.sceneId, scenePanelKeys.sceneId), eq(sceneParts.gatewayId, device.gatewayId)))
        .where(eq(device.gatewayId, q.gatewayId))
        .orderBy(asc(device.addr), asc(scenePanelKeys.key));
    },

    /** A device of the tenant as a panel: type, gateway, map. */
    async device(q: { tenantId: bigint; id: bigint }) {
      const [row] = await db
        .select({
          id: device.id,
          type: device.type,
          gatewayId: device.gatewayId,
          mapId: device.mapId,
          addr: device.addr,
          name: device.name,
        })
        .from(device)
        .where(and(eq(device.tenantId, q.tenantId), eq(device.id, q.id)))
        .limit(1);
      return row;
    },

    /** The linkages of the sensors standing on a map, with their group and whether the gateway runs them. */
    async linkagesOnMap(q: { tenantId: bigint; mapId: bigint }) {
      return linkageRows(db, and(eq(sensorLinkages.tenantId, q.tenantId), eq(device.mapId, q.mapId)));
    },

    async linkage(q: { tenantId: bigint; sensorId: bigint }) {
      const [row] = await db
        .select()
        .from(sensorLinkages)
        .where(and(eq(sensorLinkages.tenantId, q.tenantId), eq(sensorLinkages.sensorId, q.sensorId)));
      return row;
    },

    /**
     * Writes a sensor's linkage with the configuration version that first carries it, raising the sensor
     * gateway's version, and answers it as the map's list shows it; undefined when it cannot be shown (its
     * sensor is on no map), and then nothing is kept, so it never reaches the gateway either.
     */
    async saveLinkage(q: {
      tenantId: bigint;
      sensorId: bigint;
      mapId: bigint;
      gatewayId: bigint;
      groupId: bigint;
      onDetectPercent: number;
      onClearPercent: number;
      holdS: number;
      lux: number | null;
      at: Date;
    }) {
      const saving = db.transaction(async (tx) => {
        const [gateway] = await tx
          .update(gateways)
          .set({ configVersion: sql`${gateways.configVersion} + 1`, syncStatus: SYNC_STATUS.notSynced, updatedAt: q.at })
          .where(and(eq(gateways.tenantId, q.tenantId), eq(gateways.id, q.gatewayId)))
          .returning({ version: gateways.configVersion });
        if (!gateway) return tx.rollback();
        const linkage = {
          tenantId: q.tenantId,
          sensorId: q.sensorId,
          groupId: q.groupId,
          onDetectPercent: q.onDetectPercent,
          onClearPercent: q.onClearPercent,
          holdS: q.holdS,
          lux: q.lux,
          version: gateway.version,
        };
        const { sensorId: _sensorId, ...fields } = linkage;
        await tx.insert(sensorLinkages).values(linkage).onConflictDoUpdate({ target: sensorLinkages.sensorId, set: fields });
        const [saved] = await linkageRows(
          tx,
          and(eq(sensorLinkages.tenantId, q.tenantId), eq(sensorLinkages.sensorId, q.sensorId), eq(device.mapId, q.mapId)),
        );
        if (!saved) return tx.rollback();
        return saved;
      });
      return saving.catch((error: unknown) => {
        if (error instanceof TransactionRollbackError) return undefined;
        throw error;
      });
    },

    async removeLinkage(q: { tenantId: bigint; sensorId: bigint }) {
      await db.delete(sensorLinkages).where(and(eq(sensorLinkages.tenantId, q.tenantId), eq(sensorLinkages.sensorId, q.sensorId)));
    },

    /** The linkages a gateway runs: sensor address, group number and what the group does. */
    async gatewayLinkages(q: { tenantId: bigint; gatewayId: bigint }) {
      return db
        .select({
          sensor: device.addr,
          group: groups.number,
          onDetectPercent: sensorLinkages.onDetectPercent,
          onClearPercent: sensorLinkages.onClearPercent,
          holdS: sensorLinkages.holdS,
          lux: sensorLinkages.lux,
        })
        .from(sensorLinkages)
        .innerJoin(device, eq(device.id, sensorLinkages.sensorId))
        .innerJoin(groups, and(eq(groups.id, sensorLinkages.groupId), eq(groups.gatewayId, device.gatewayId)))
        .where(and(eq(sensorLinkages.tenantId, q.tenantId), eq(device.gatewayId, q.gatewayId)))
        .orderBy(asc(device.addr));
    },

    /** Devices of the tenant with their gateways, for execute_auto. */
    async devicesWithGateways(q: { tenantId: bigint; ids: bigint[] }) {
      return db
        .select({
          id: device.id,
          addr: device.addr,
          mapId: device.mapId,
          gatewayId: gateways.id,
          mac: gateways.mac,
          gatewayName: gateways.name,
        })
        .from(device)
        .innerJoin(gateways, eq(gateways.id, device.gatewayId))
        .where(and(eq(device.tenantId, q.tenantId), inArray(device.id, q.ids)));
    },
  };
}
export type ScenesRepo = ReturnType<typeof createScenesRepo>;

/** Linkages with their sensor's and group's names and whether the sensor's gateway runs them. */
function linkageRows(db: Pick<Db, 'select'>, where: SQL | undefined) {
  return db
    .select({
      linkage: sensorLinkages,
      sensorName: device.name,
      groupName: groups.name,
      gatewayId: device.gatewayId,
      syncedVersion: gateways.syncedVersion,
    })
    .from(sensorLinkages)
    .innerJoin(device, eq(device.id, sensorLinkages.sensorId))
    .innerJoin(groups, eq(groups.id, sensorLinkages.groupId))
    .innerJoin(gateways, eq(gateways.id, device.gatewayId))
    .where(where)
    .orderBy(asc(device.name), asc(device.id));
}
export type SceneRow = NonNullable<Awaited<ReturnType<ScenesRepo['find']>>>;
