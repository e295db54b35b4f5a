import { isDeepStrictEqual } from 'node:util';
import { FIRMWARE_RESULT } from '@lumigrid/protocol';
import type { GatewayInfo } from '@lumigrid/protocol';
import { SYNC_STATUS } from '@lumigrid/contract';
import { and, asc, count, eq, getTableColumns, ilike, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { PlacementChanges } from '../devices/placement-index.ts';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { buildings, devices, gateways, groups, projects } from '../../db/schema/index.ts';
import { mapPlaces } from '../projects/maps.repo.ts';
import { likePattern } from '../projects/projects.repo.ts';
import { usersSeeingMap } from '../projects/map-audience.ts';

export type GatewayRecord = typeof gateways.$inferSelect;

/** The maps gateways stand on, read through the projects domain's subquery. */
const map = mapPlaces('map');
/** A bound gateway with the names of its place and its device and bridge counts. */
export type GatewayRow = GatewayRecord & {
  mapName: string;
  buildId: bigint;
  buildName: string;
  projectId: bigint;
  projectName: string;
  deviceCount: number;
  bridgeQuantity: number;
};

// Sync status constants inlined as smallint literals: a bound parameter in a CASE would be typed text.
const SYNCED = sql.raw(`${SYNC_STATUS.synced}::smallint`);
const NOT_SYNCED = sql.raw(`${SYNC_STATUS.notSynced}::smallint`);
const SYNCING = sql.raw(`${SYNC_STATUS.syncing}::smallint`);
const FAILED = sql.raw(`${SYNC_STATUS.failed}::smallint`);

/**
 * Queries on gateways and the devices imported from them. Every query of a bound gateway filters by the
 * tenant; the few that work by MAC across accounts (provisioning, presence, the pool) say so in their name.
 */
export function createGatewaysRepo(db: Db, placements?: PlacementChanges) {
  // Written out with the outer table named: an unqualified id would be captured by the inner alias.
  const deviceCount = sql<number>`(select count(*)::int from devices d where d.gateway_id = "gateways"."id")`;
  const bridgeQuantity = sql<number>`(select count(*)::int from devices d where d.gateway_id = "gateways"."id" and d.kind in ('bridge', 'bridge-wisun', 'bridge-dali'))`;
  const selectBound = () =>
    db
      .select({
        ...getTableColumns(gateways),
        mapName: map.name,
        buildId: buildings.id,
        buildName: buildings.name,
        projectId: projects.id,
        projectName: projects.name,
        deviceCount,
        bridgeQuantity,
      })
      .from(gateways)
      .innerJoin(map, eq(map.id, gateways.mapId))
      .innerJoin(buildings, eq(buildings.id, map.buildId))
      .innerJoin(projects, eq(projects.id, map.projectId));

  return {
    async find({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<GatewayRow | undefined> {
      const [row] = await selectBound()
        .where(and(eq(gateways.tenantId, tenantId), eq(gateways.id, id)))
        .limit(1);
      return row;
    },

    async list(q: {
      tenantId: bigint;
      projectId?: bigint;
      buildId?: bigint;
      mapId?: bigint;
      /** The maps a limited sub-account sees; every map of the tenant when absent. */
      mapIds?: bigint[];
      text?: string;
      online?: boolean;
      offset: number;
      limit: number;
    }) {
      const where = and(
        eq(gateways.tenantId, q.tenantId),
        q.mapIds !== undefined ? inArray(gateways.mapId, q.mapIds) : undefined,
        q.projectId !== undefined ? eq(map.projectId, q.projectId) : undefined,
        q.buildId !== undefined ? eq(map.buildId, q.buildId) : undefined,
        q.mapId !== undefined ? eq(gateways.mapId, q.mapId) : undefined,
        q.online !== undefined ? eq(gateways.online, q.online) : undefined,
        q.text ? or(ilike(gateways.name, likePattern(q.text)), ilike(gateways.mac, likePattern(q.text.replace(/[:-]/g, '')))) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(gateways).innerJoin(map, eq(map.id, gateways.mapId)).where(where);
      const list = await selectBound().where(where).orderBy(asc(gateways.name), asc(gateways.id)).offset(q.offset).limit(q.limit);
      return { total: total?.n ?? 0, list };
    },

    /** Gateways whose configuration is not synced (anything but status 3), for the sync banner. */
    async notSynced({ tenantId, mapIds }: { tenantId: bigint; mapIds?: bigint[] }): Promise<GatewayRow[]> {
      return selectBound()
        .where(
          and(
            eq(gateways.tenantId, tenantId),
            ne(gateways.syncStatus, SYNC_STATUS.synced),
            mapIds !== undefined ? inArray(gateways.mapId, mapIds) : undefined,
          ),
        )
        .orderBy(asc(gateways.name), asc(gateways.id));
    },

    /** A gateway by MAC whoever owns it: binding, search_device_for_mac, provisioning and presence. */
    async findByMacAnyTenant({ mac }: { mac: string }): Promise<GatewayRecord | undefined> {
      const [row] = await db.select().from(gateways).where(eq(gateways.mac, mac)).limit(1);
      return row;
    },

    /** Provisions a gateway (or issues it a new password): it stays in the pool, or with its account. */
    async provisionAnyTenant({ mac, passwordHash }: { mac: string; passwordHash: string }): Promise<GatewayRecord> {
      const [row] = await db
        .insert(gateways)
        .values({ mac, passwordHash })
        .onConflictDoUpdate({ target: gateways.mac, set: { passwordHash, updatedAt: sql`now()` } })
        .returning();
      return row!;
    },

    async passwordHashAnyTenant({ mac }: { mac: string }): Promise<string | undefined> {
      const [row] = await db.select({ h: gateways.passwordHash }).from(gateways).where(eq(gateways.mac, mac)).limit(1);
      return row?.h ?? undefined;
    },

    /** The MACs of every gateway provisioned with a password: the broker's password file. */
    async provisionedMacsAnyTenant(): Promise<string[]> {
      const rows = await db.select({ mac: gateways.mac }).from(gateways).where(isNotNull(gateways.passwordHash));
      return rows.map((r) => r.mac);
    },

    /**
     * Takes a gateway out of the pool for an account. Only a row with no tenant is taken, so two accounts
     * racing for the same MAC cannot both win; answers undefined when it was not in the pool. The
     * configuration version is raised past anything the gateway ran for a previous account.
     */
    async bindFromPool(q: { tenantId: bigint; id: bigint; mapId: bigint; name: string; at: Date }): Promise<boolean> {
      const rows = await db
        .update(gateways)
        .set({
          tenantId: q.tenantId,
          mapId: q.mapId,
          name: q.name,
          planX: null,
          planY: null,
          boundAt: q.at,
          configVersion: sql`greatest(${gateways.configVersion}, ${gateways.syncedVersion}) + 1`,
          syncStatus: SYNC_STATUS.notSynced,
          updatedAt: q.at,
        })
        .where(and(eq(gateways.id, q.id), isNull(gateways.tenantId)))
        .returning({ id: gateways.id });
      // Its reports now carry the account: whatever holds the gateway's pool state reads it again.
      if (rows.length === 1) placements?.changed([q.id]);
      return rows.length === 1;
    },

    async update(q: {
      tenantId: bigint;
      id: bigint;
      set: Partial<
        Pick<
          typeof gateways.$inferInsert,
          'name' | 'mapId' | 'longitude' | 'latitude' | 'planX' | 'planY' | 'timezone' | 'reportIntervalS' | 'sensorMode' | 'info'
        >
      >;
      at: Date;
    }) {
      await db
        .update(gateways)
        .set({ ...q.set, updatedAt: q.at })
        .where(and(eq(gateways.tenantId, q.tenantId), eq(gateways.id, q.id)));
    },

    /**
     * Moves a gateway and every device of it that is on a map to another map, in one transaction. The
     * gateway's spot on the old floor plan means nothing on another one, so it is cleared.
     */
    async changePlace(q: { tenantId: bigint; id: bigint; mapId: bigint; at: Date }) {
      await db.transaction(async (tx) => {
        const sameMap = sql`${gateways.mapId} = ${q.mapId}`;
        await tx
          .update(gateways)
          .set({
            mapId: q.mapId,
            planX: sql`case when ${sameMap} then ${gateways.planX} end`,
            planY: sql`case when ${sameMap} then ${gateways.planY} end`,
            updatedAt: q.at,
          })
          .where(and(eq(gateways.tenantId, q.tenantId), eq(gateways.id, q.id)));
        await tx
          .update(devices)
          .set({ mapId: q.mapId, updatedAt: q.at })
          .where(and(eq(devices.tenantId, q.tenantId), eq(devices.gatewayId, q.id), isNotNull(devices.mapId)));
      });
      placements?.changed([q.id]);
    },

    /** Raises the desired configuration version of some gateways: their configuration changed in the cloud. */
    async raiseConfigVersion({ tenantId, ids, at }: { tenantId: bigint; ids: bigint[]; at: Date }) {
      if (ids.length === 0) return;
      await db
        .update(gateways)
        .set({ configVersion: sql`${gateways.configVersion} + 1`, syncStatus: SYNC_STATUS.notSynced, updatedAt: at })
        .where(and(eq(gateways.tenantId, tenantId), inArray(gateways.id, ids)));
    },

    /** Every gateway's highest configuration version, desired or acknowledged (any account; a restore keeps it). */
    async configVersionsAnyTenant(): Promise<Array<{ id: bigint; mac: string; version: number }>> {
      return db
        .select({
          id: gateways.id,
          mac: gateways.mac,
          version: sql<number>`greatest(${gateways.configVersion}, ${gateways.syncedVersion})`,
        })
        .from(gateways);
    },

    /**
     * After a restore: every gateway's desired version goes past anything it ran, in the restored data and in
     * `previous` (versions from before the restore, by MAC), so none counts as synced with a configuration it
     * ran before. Answers the gateways bound to an account.
     */
    async raiseVersionsPastAnyTenant(q: { previous: Array<{ mac: string; version: number }>; at: Date }) {
      await db.update(gateways).set({
        configVersion: sql`greatest(${gateways.configVersion}, ${gateways.syncedVersion}) + 1`,
        syncStatus: SYNC_STATUS.notSynced,
        updatedAt: q.at,
      });
      if (q.previous.length > 0)
        await db.execute(sql`update gateways as g set config_version = f.version + 1
          from json_to_recordset(${JSON.stringify(q.previous.map(({ mac, version }) => ({ mac, version })))}::json) as f(mac text, version integer)
          where g.mac = f.mac and g.config_version <= f.version`);
      return db
        .select({ id: gateways.id, tenantId: gateways.tenantId, mac: gateways.mac, online: gateways.online })
        .from(gateways)
        .where(isNotNull(gateways.tenantId));
    },

    /**
     * Marks a sync running, or failed (only while the version it was for is still the desired one). A
     * failure never overrides synced: the gateway's own state may already say it runs that version even
     * when its reply to the command was lost.
     */
    async setSyncStatus({ tenantId, id, status, version }: { tenantId: bigint; id: bigint; status: number; version: number }) {
      const keepSynced = status === SYNC_STATUS.failed ? ne(gateways.syncStatus, SYNC_STATUS.synced) : undefined;
      await db
        .update(gateways)
        .set({ syncStatus: status })
        .where(and(eq(gateways.tenantId, tenantId), eq(gateways.id, id), eq(gateways.configVersion, version), keepSynced));
    },

    /** The gateway acknowledged a version: synced when it is still the desired one. */
    async acknowledge({ tenantId, id, version, at }: { tenantId: bigint; id: bigint; version: number; at: Date }) {
      await db
        .update(gateways)
        .set({
          syncedVersion: version,
          syncStatus: sql`case when ${gateways.configVersion} = ${version}::int then ${SYNCED} else ${NOT_SYNCED} end`,
          updatedAt: at,
        })
        .where(and(eq(gateways.tenantId, tenantId), eq(gateways.id, id)));
    },

    /**
     * Stores what a gateway's up/state said, by MAC (the link knows no accounts). An online state carries
     * the version it runs: equal to the desired one it is synced, otherwise not (unless a sync is running).
     */
    /**
     * Stores a gateway's presence; answers whether what the gateway is (online, why not, its reported info)
     * differs from what was stored. Every server node hears each state and writes it: the row lock makes
     * the nodes' writes of one change take turns, so only the first finds it new.
     */
    async recordPresenceAnyTenant(q: {
      mac: string;
      online: boolean;
      info: GatewayInfo | undefined;
      reason: string | undefined;
      at: Date;
    }): Promise<boolean> {
      const running = q.info?.configVersion;
      const offlineReason = q.online ? null : (q.reason ?? null);
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select({ online: gateways.online, offlineReason: gateways.offlineReason, info: gateways.info })
          .from(gateways)
          .where(eq(gateways.mac, q.mac))
          .for('update');
        if (!before) return false;
        await tx
          .update(gateways)
          .set({
            online: q.online,
            offlineReason,
            // Unknown (the server lost its broker) is not a sighting of the gateway.
            ...(q.reason === 'unknown' ? {} : { lastSeenAt: q.at }),
            ...(q.info ? { info: q.info, superGateway: q.info.superGateway } : {}),
            ...(running !== undefined
              ? {
                  syncedVersion: running,
                  syncStatus: sql`case when ${gateways.configVersion} = ${running}::int then ${SYNCED} when ${gateways.syncStatus} in (${SYNCING}, ${FAILED}) then ${gateways.syncStatus} else ${NOT_SYNCED} end`,
                }
              : {}),
          })
          .where(eq(gateways.mac, q.mac));
        return (
          before.online !== q.online ||
          before.offlineReason !== offlineReason ||
          (q.info !== undefined && !isDeepStrictEqual(before.info, q.info))
        );
      });
    },

    // --- firmware updates, shared by every server node (gateway-link/firmware-tracker.ts FirmwareStore) -------

    /** The update running on a gateway: started, no result yet. */
    async firmwareRunningAnyTenant({ mac }: { mac: string }) {
      const [row] = await db
        .select()
        .from(gateways)
        .where(and(eq(gateways.mac, mac), isNotNull(gateways.fwUpdateId), isNull(gateways.fwResult)))
        .limit(1);
      return row;
    },

    async firmwareBeginAnyTenant(q: { mac: string; update: string; target: string; version: string; startedAt: Date; deadline: Date }) {
      await db
        .update(gateways)
        .set({
          fwUpdateId: q.update,
          fwTarget: q.target,
          fwVersion: q.version,
          fwStage: 'requested',
          fwProgress: 0,
          fwResult: null,
          fwStartedAt: q.startedAt,
          fwDeadlineAt: q.deadline,
        })
        .where(eq(gateways.mac, q.mac));
    },

    /**
     * Progress of the running update `update`: the stage and the higher percent (events may arrive at two
     * nodes out of order). With a result, only the first statement writes it; `concluded` tells that one.
     */
    async firmwareAdvanceAnyTenant(q: { mac: string; update: string; stage: string; progress: number; result?: number }) {
      const running = and(eq(gateways.mac, q.mac), eq(gateways.fwUpdateId, q.update), isNull(gateways.fwResult));
      const [row] = await db
        .update(gateways)
        .set({
          fwStage: q.stage,
          fwProgress: sql`greatest(${gateways.fwProgress}, ${Math.round(q.progress)}::smallint)`,
          ...(q.result !== undefined ? { fwResult: q.result } : {}),
        })
        .where(running)
        .returning();
      return row ? { row, concluded: q.result !== undefined } : undefined;
    },

    /** Times out the running updates past their deadline; each row is returned by exactly one statement. */
    async firmwareExpireAnyTenant({ now }: { now: Date }) {
      return db
        .update(gateways)
        .set({ fwResult: FIRMWARE_RESULT.timeout })
        .where(
          and(isNotNull(gateways.fwUpdateId), isNull(gateways.fwResult), sql`${gateways.fwDeadlineAt} < ${now.toISOString()}::timestamptz`),
        )
        .returning();
    },

    /** Marks every gateway offline: at start, before the link hears the retained states again. */
    /** The MACs of the gateways stored as online, in every account. */
    async onlineMacsAnyTenant(): Promise<string[]> {
      const rows = await db.select({ mac: gateways.mac }).from(gateways).where(eq(gateways.online, true));
      return rows.map((r) => r.mac);
    },

    /**
     * Unbinds a gateway: refused (false) while any of its devices is on a map; otherwise its devices are
     * removed and it goes back to the pool, keeping its credentials, in one transaction.
     */
    async unbind({ tenantId, id, at }: { tenantId: bigint; id: bigint; at: Date }): Promise<'unbound' | 'linked' | 'missing'> {
      const result = await db.transaction(async (tx): Promise<'unbound' | 'linked' | 'missing'> => {
        const [row] = await tx
          .select({ id: gateways.id })
          .from(gateways)
          .where(and(eq(gateways.tenantId, tenantId), eq(gateways.id, id)))
          .for('update');
        if (!row) return 'missing';
        const [placed] = await tx
          .select({ n: count() })
          .from(devices)
          .where(and(eq(devices.tenantId, tenantId), eq(devices.gatewayId, id), isNotNull(devices.mapId)));
        if ((placed?.n ?? 0) > 0) return 'linked';
        await tx.delete(devices).where(and(eq(devices.tenantId, tenantId), eq(devices.gatewayId, id)));
        // Its group numbers were this account's: the next account starts with a free radio group table.
        await tx.delete(groups).where(eq(groups.gatewayId, id));
        await tx
          .update(gateways)
          .set({
            tenantId: null,
            mapId: null,
            name: '',
            planX: null,
            planY: null,
            longitude: null,
            latitude: null,
            timezone: null,
            reportIntervalS: null,
            sensorMode: null,
            boundAt: null,
            syncStatus: SYNC_STATUS.notSynced,
            updatedAt: at,
          })
          .where(and(eq(gateways.tenantId, tenantId), eq(gateways.id, id)));
        // A finished firmware update was the previous account's business; a running one is the gateway's state.
        await tx
          .update(gateways)
          .set({
            fwUpdateId: null,
            fwTarget: null,
            fwVersion: null,
            fwStage: null,
            fwProgress: 0,
            fwResult: null,
            fwStartedAt: null,
            fwDeadlineAt: null,
          })
          .where(and(eq(gateways.id, id), isNotNull(gateways.fwResult)));
        return 'unbound';
      });
      if (result === 'unbound') placements?.changed([id]);
      return result;
    },

    /**
     * The account owning a gateway and its users, for real-time notices by MAC: the owner, and the
     * sub-accounts that see the gateway's map (every one not limited to some projects, and those given the
     * map's project or a project above it).
     */
    async audienceAnyTenant({ mac }: { mac: string }) {
      const [gw] = await db
        .select({ id: gateways.id, name: gateways.name, tenantId: gateways.tenantId, mapId: gateways.mapId })
        .from(gateways)
        .where(and(eq(gateways.mac, mac), isNotNull(gateways.tenantId)))
        .limit(1);
      if (!gw || gw.tenantId === null) return undefined;
      return { gatewayId: String(gw.id), name: gw.name, userIds: await usersSeeingMap(db, { tenantId: gw.tenantId, mapId: gw.mapId }) };
    },

    /** Whose a gateway is and where it stands (webhook events of its presence, its alerts), or undefined while unbound. */
    async placeAnyTenant({ mac }: { mac: string }) {
      const [gw] = await db
        .select({
          id: gateways.id,
          name: gateways.name,
          tenantId: gateways.tenantId,
          mapId: gateways.mapId,
          buildId: map.buildId,
          projectId: map.projectId,
        })
        .from(gateways)
        .leftJoin(map, eq(map.id, gateways.mapId))
        .where(and(eq(gateways.mac, mac), isNotNull(gateways.tenantId)))
        .limit(1);
      return gw && gw.tenantId !== null ? { ...gw, tenantId: gw.tenantId } : undefined;
    },
  };
}
export type GatewaysRepo = ReturnType<typeof createGatewaysRepo>;

/**
 * Every gateway (bound or in the pool) as a subquery named `alias`, with the columns other domains read (id,
 * tenant_id, map_id, name, mac, online, timezone, config_version, synced_version, info); the reader filters it by
 * its account or joins it on its own account's rows.
 */
export function gatewaysAnyTenant<Alias extends string = 'gw'>(alias = 'gw' as Alias) {
  return new QueryBuilder()
    .select({
      id: gateways.id,
      tenantId: gateways.tenantId,
      mapId: gateways.mapId,
      name: gateways.name,
      mac: gateways.mac,
      online: gateways.online,
      timezone: gateways.timezone,
      configVersion: gateways.configVersion,
      syncedVersion: gateways.syncedVersion,
      info: gateways.info,
    })
    .from(gateways)
    .as(alias);
}

/** Every gateway, whole rows, as a subquery named `alias`: what the audit reads an edit's values before it from. */
export function gatewayRecordsAnyTenant(alias = 'gw') {
  return new QueryBuilder().select(getTableColumns(gateways)).from(gateways).as(alias);
}
