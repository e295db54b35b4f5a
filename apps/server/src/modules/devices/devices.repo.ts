import { and, asc, count, eq, getTableColumns, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { rowBytesByTenant } from '../../db/row-bytes.ts';
import { likePattern } from '../projects/projects.repo.ts';
import type { PlacementChanges } from './placement-index.ts';
import type { OwnedReads, SharedGateways } from '../../db/owned-reads.ts';
import { buildings, devices, groupDevices, groups, projects, sensorLinkages } from '../../db/schema/index.ts';
import { deviceStatesAnyTenant } from '../device-reports/device-states.ts';
import { mapPlaces } from '../projects/maps.repo.ts';
import type { PlaceFilter } from '../projects/project-access.ts';

/** The maps devices stand on and the devices' last reported states, read through their owners' subqueries. */
const map = mapPlaces('map');
const lastState = deviceStatesAnyTenant('last_state');

/** The gateways devices stand behind, as their owner shares them (`OwnedReads`: the gateways domain imports this one). */
type Gateways = SharedGateways<'gateways'>;

/** The columns every device read needs: the row, its map's building, its gateway's MAC and its reported state. */
function deviceColumns(gateways: Gateways) {
  return {
    device: devices,
    buildId: map.buildId,
    mapName: map.name,
    mac: gateways.mac,
    gatewayName: gateways.name,
    gatewayMapId: gateways.mapId,
    gatewayOnline: gateways.online,
    reported: {
      online: lastState.online,
      fault: lastState.fault,
      state: lastState.state,
      reportedAt: lastState.reportedAt,
      receivedAt: lastState.receivedAt,
    },
  };
}

/**
 * The columns a map marker needs (devices.mappers.ts mapMarker), nothing more: the floor plan reads thousands
 * of these at once, and decoding the device's other columns, its gateway and its map cost most of the answer.
 */
function markerColumns(gateways: Gateways) {
  return {
    device: {
      id: devices.id,
      name: devices.name,
      type: devices.type,
      status: devices.status,
      typeStatus: devices.typeStatus,
      mapId: devices.mapId,
      x: devices.x,
      y: devices.y,
    },
    gatewayOnline: gateways.online,
    reported: {
      online: lastState.online,
      fault: lastState.fault,
      state: lastState.state,
    },
  };
}

export type DeviceRecord = typeof devices.$inferSelect;

/**
 * Only devices on the maps a limited sub-account sees (a device not placed yet counts as on its gateway's
 * map); no condition when mapIds is absent. The query must join gateways.
 */
function onVisibleMaps(gateways: Gateways, mapIds: bigint[] | undefined): SQL | undefined {
  if (mapIds === undefined) return undefined;
  if (mapIds.length === 0) return sql`false`;
  return inArray(sql`coalesce(${devices.mapId}, ${gateways.mapId})`, mapIds);
}
const BRIDGE_KINDS = ['bridge', 'bridge-wisun', 'bridge-dali'];

/**
 * Deletes the linkages of these sensors (the tenant's) and answers the gateways that ran them, whose
 * configuration changes. Runs before the sensors leave their map or the cloud, in the same transaction.
 */
async function dropLinkages(tx: Pick<Db, 'selectDistinct' | 'delete'>, q: { tenantId: bigint; ids: bigint[] }): Promise<bigint[]> {
  if (q.ids.length === 0) return [];
  const dropped = await tx
    .delete(sensorLinkages)
    .where(and(eq(sensorLinkages.tenantId, q.tenantId), inArray(sensorLinkages.sensorId, q.ids)))
    .returning({ sensorId: sensorLinkages.sensorId });
  if (dropped.length === 0) return [];
  const ran = await tx
    .selectDistinct({ gatewayId: devices.gatewayId })
    .from(devices)
    .where(
      and(
        eq(devices.tenantId, q.tenantId),
        inArray(
          devices.id,
          dropped.map((d) => d.sensorId),
        ),
      ),
    );
  return ran.map((r) => r.gatewayId);
}

/**
 * Queries of devices; every one takes the tenant, so another account's ids match nothing. Changes to where a
 * device is, what it is called or what type it is are told to `placements` once committed.
 */
export function createDevicesRepo(db: Db, reads: Pick<OwnedReads, 'gateways'>, placements?: PlacementChanges) {
  const gateways = reads.gateways('gateways');
  const changed = (rows: ReadonlyArray<{ gatewayId: bigint }>) => placements?.changed(rows.map((r) => r.gatewayId));
  const gatewayOf = { gatewayId: devices.gatewayId };
  const select = () =>
    db
      .select(deviceColumns(gateways))
      .from(devices)
      .innerJoin(gateways, eq(gateways.id, devices.gatewayId))
      .leftJoin(map, eq(map.id, devices.mapId))
      .leftJoin(lastState, and(eq(lastState.gatewayId, devices.gatewayId), eq(lastState.addr, devices.addr)));

  const selectInGroups = () =>
    db
      .select({ groupId: groupDevices.groupId, ...deviceColumns(gateways) })
      .from(groupDevices)
      .innerJoin(devices, eq(devices.id, groupDevices.deviceId))
      .innerJoin(gateways, eq(gateways.id, devices.gatewayId))
      .leftJoin(map, eq(map.id, devices.mapId))
      .leftJoin(lastState, and(eq(lastState.gatewayId, devices.gatewayId), eq(lastState.addr, devices.addr)));

  /** How many groups each device is in (`n`), leaving `exceptGroupId` out, as a subquery named `alias`. */
  const groupCounts = (alias: string, exceptGroupId?: bigint) =>
    db
      .select({ deviceId: groupDevices.deviceId, n: count().as('n') })
      .from(groupDevices)
      .where(exceptGroupId === undefined ? undefined : ne(groupDevices.groupId, exceptGroupId))
      .groupBy(groupDevices.deviceId)
      .as(alias);

  return {
    async find(q: { tenantId: bigint; id: bigint; mapIds?: bigint[] }) {
      const [row] = await select()
        .where(and(eq(devices.tenantId, q.tenantId), eq(devices.id, q.id), onVisibleMaps(gateways, q.mapIds)))
        .limit(1);
      return row;
    },

    /** The markers of the devices placed on a map, in a stable order (marker columns only). */
    onMap(q: { tenantId: bigint; mapId: bigint }) {
      return db
        .select(markerColumns(gateways))
        .from(devices)
        .innerJoin(gateways, eq(gateways.id, devices.gatewayId))
        .leftJoin(lastState, and(eq(lastState.gatewayId, devices.gatewayId), eq(lastState.addr, devices.addr)))
        .where(and(eq(devices.tenantId, q.tenantId), eq(devices.mapId, q.mapId)))
        .orderBy(asc(devices.id));
    },

    /** Every placed device behind a gateway of an account, by its MAC (the report path: no caller to check). */
    async placedBehind(mac: string) {
      const [gateway] = await db
        .select({ id: gateways.id, tenantId: gateways.tenantId })
        .from(gateways)
        .where(eq(gateways.mac, mac))
        .limit(1);
      if (!gateway?.tenantId) return undefined;
      const { device } = markerColumns(gateways);
      const rows = await db
        .select({ ...device, addr: devices.addr })
        .from(devices)
        .where(and(eq(devices.tenantId, gateway.tenantId), eq(devices.gatewayId, gateway.id), isNotNull(devices.mapId)));
      return { gatewayId: gateway.id, devices: rows };
    },

    /** A device of a gateway by address, with its place (an alert's subject); undefined for an address the account does not know. */
    async atAddress(q: { tenantId: bigint; gatewayId: bigint; addr: string }) {
      const [row] = await db
        .select({
          id: devices.id,
          name: devices.name,
          type: devices.type,
          mapId: devices.mapId,
          buildId: map.buildId,
          projectId: map.projectId,
        })
        .from(devices)
        .leftJoin(map, eq(map.id, devices.mapId))
        .where(and(eq(devices.gatewayId, q.gatewayId), eq(devices.tenantId, q.tenantId), eq(devices.addr, q.addr)))
        .limit(1);
      return row;
    },

    /** How many of the ids the tenant holds (on the maps given, when a limited sub-account asks). */
    async countOwned(q: { tenantId: bigint; ids: bigint[]; mapIds?: bigint[] }): Promise<number> {
      const rows = await db
        .select({ id: devices.id })
        .from(devices)
        .innerJoin(gateways, eq(gateways.id, devices.gatewayId))
        .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.id, q.ids), onVisibleMaps(gateways, q.mapIds)));
      return rows.length;
    },

    async rename(q: { tenantId: bigint; id: bigint; name: string }) {
      changed(
        await db
          .update(devices)
          .set({ name: q.name, updatedAt: new Date() })
          .where(and(eq(devices.tenantId, q.tenantId), eq(devices.id, q.id)))
          .returning(gatewayOf),
      );
    },

    /** Places devices on a map at their positions, in one transaction. */
    async place(q: { tenantId: bigint; mapId: bigint; placements: Array<{ id: bigint; x: number; y: number }> }) {
      const placed = await db.transaction(async (tx) => {
        const rows: Array<{ gatewayId: bigint }> = [];
        for (const p of q.placements) {
          rows.push(
            ...(await tx
              .update(devices)
              .set({ mapId: q.mapId, x: p.x, y: p.y, updatedAt: new Date() })
              .where(and(eq(devices.tenantId, q.tenantId), eq(devices.id, p.id)))
              .returning(gatewayOf)),
          );
        }
        return rows;
      });
      changed(placed);
    },

    /** Which map each of these devices is on now (null: outmap), to tell the maps they leave. */
    mapsOf(q: { tenantId: bigint; ids: bigint[] }): Promise<Array<{ id: bigint; mapId: bigint | null }>> {
      if (q.ids.length === 0) return Promise.resolve([]);
      return db
        .select({ id: devices.id, mapId: devices.mapId })
        .from(devices)
        .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.id, q.ids)));
    },

    /** The ids of those devices that are on the given map. */
    async idsOnMap(q: { tenantId: bigint; mapId: bigint; ids: bigint[] }): Promise<bigint[]> {
      const rows = await db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.tenantId, q.tenantId), eq(devices.mapId, q.mapId), inArray(devices.id, q.ids)));
      return rows.map((r) => r.id);
    },

    /**
     * The tenant's devices matching the list filters, in a stable order. The display state is computed from
     * the reported state, so the caller filters on it and pages.
     */
    list(q: PlaceFilter & { groupId?: bigint; type?: number; text?: string }) {
      const where: SQL[] = [eq(devices.tenantId, q.tenantId)];
      const visible = onVisibleMaps(gateways, q.mapIds);
      if (visible) where.push(visible);
      if (q.mapId !== undefined) where.push(eq(devices.mapId, q.mapId));
      if (q.buildId !== undefined) where.push(eq(map.buildId, q.buildId));
      if (q.projectId !== undefined) {
        where.push(
          inArray(
            map.buildId,
            db
              .select({ id: buildings.id })
              .from(buildings)
              .where(and(eq(buildings.tenantId, q.tenantId), eq(buildings.projectId, q.projectId))),
          ),
        );
      }
      if (q.gatewayId !== undefined) where.push(eq(devices.gatewayId, q.gatewayId));
      if (q.groupId !== undefined) {
        const members = db
          .select({ id: groupDevices.deviceId })
          .from(groupDevices)
          .innerJoin(groups, eq(groups.id, groupDevices.groupId))
          .where(and(eq(groups.tenantId, q.tenantId), eq(groups.id, q.groupId)));
        where.push(inArray(devices.id, members));
      }
      if (q.type !== undefined) where.push(eq(devices.type, q.type));
      if (q.text) {
        where.push(or(ilike(devices.name, likePattern(q.text)), ilike(devices.addr, likePattern(q.text))) as SQL);
      }
      return select()
        .where(and(...where))
        .orderBy(asc(devices.id));
    },

    /** Whether the tenant owns the project, building or gateway a filter names. */
    async owns(q: {
      tenantId: bigint;
      table: 'project' | 'building' | 'gateway' | 'group';
      id: bigint;
      /** What a limited sub-account sees; the whole tenant when absent. */
      scope?: { projectIds: bigint[]; mapIds: bigint[] };
    }): Promise<boolean> {
      const table = { project: projects, building: buildings, gateway: gateways, group: groups }[q.table];
      const visible =
        q.scope &&
        {
          project: inArray(projects.id, q.scope.projectIds),
          building: inArray(buildings.projectId, q.scope.projectIds),
          gateway: inArray(gateways.mapId, q.scope.mapIds),
          group: inArray(groups.mapId, q.scope.mapIds),
        }[q.table];
      const rows = await db
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.tenantId, q.tenantId), eq(table.id, q.id), visible))
        .limit(1);
      return rows.length === 1;
    },

    /** The groups the devices belong to, with their names (the list's group column). */
    async groupsOf(q: { tenantId: bigint; deviceIds: bigint[] }): Promise<Array<{ deviceId: bigint; groupId: bigint; name: string }>> {
      if (q.deviceIds.length === 0) return [];
      return db
        .select({ deviceId: groupDevices.deviceId, groupId: groups.id, name: groups.name })
        .from(groupDevices)
        .innerJoin(groups, eq(groups.id, groupDevices.groupId))
        .where(and(eq(groups.tenantId, q.tenantId), inArray(groupDevices.deviceId, q.deviceIds)))
        .orderBy(asc(groups.id));
    },

    /** The tenant's devices with these ids. */
    byIds(q: { tenantId: bigint; ids: bigint[]; mapIds?: bigint[] }) {
      return select()
        .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.id, q.ids), onVisibleMaps(gateways, q.mapIds)))
        .orderBy(asc(devices.id));
    },

    /** Devices behind any of these bridges. */
    async behindBridges(q: { tenantId: bigint; bridgeIds: bigint[] }): Promise<bigint[]> {
      const rows = await db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.bridgeId, q.bridgeIds)));
      return rows.map((r) => r.id);
    },

    /** The tenant's devices of one gateway placed on a map, or on any map when gatewayId is undefined. */
    onMapOfGateway(q: { tenantId: bigint; mapId: bigint; gatewayId?: bigint }) {
      const where = [eq(devices.tenantId, q.tenantId), eq(devices.mapId, q.mapId)];
      if (q.gatewayId !== undefined) where.push(eq(devices.gatewayId, q.gatewayId));
      return select()
        .where(and(...where))
        .orderBy(asc(devices.id));
    },

    /**
     * Deletes devices from the cloud; their group memberships and sensor linkages go with them. Answers the
     * gateways that ran a linkage of a deleted sensor.
     */
    async remove(q: { tenantId: bigint; ids: bigint[] }): Promise<bigint[]> {
      if (q.ids.length === 0) return [];
      const { removed, unlinked } = await db.transaction(async (tx) => {
        const unlinked = await dropLinkages(tx, q);
        const removed = await tx
          .delete(devices)
          .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.id, q.ids)))
          .returning(gatewayOf);
        return { removed, unlinked };
      });
      changed(removed);
      return unlinked;
    },

    /** A new type (and the protocol kind that goes with it) for devices, in one statement. */
    async changeType(q: { tenantId: bigint; ids: bigint[]; type: number; kind: string }) {
      changed(
        await db
          .update(devices)
          .set({ type: q.type, kind: q.kind, updatedAt: new Date() })
          .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.id, q.ids)))
          .returning(gatewayOf),
      );
    },

    /** What the gateway now says about a device's network address, firmware and part number. */
    async updateNetwork(q: { tenantId: bigint; id: bigint; networkAddress: string; firmware: string; model: string }) {
      await db
        .update(devices)
        .set({ networkAddress: q.networkAddress, firmware: q.firmware, model: q.model, updatedAt: new Date() })
        .where(and(eq(devices.tenantId, q.tenantId), eq(devices.id, q.id)));
    },

    /**
     * Takes devices off their maps: they become outmap and lose their position. A sensor's linkage goes with
     * it, since linkages are listed and managed per map. Answers the gateways that ran a linkage of a moved sensor.
     */
    async unplace(q: { tenantId: bigint; ids: bigint[] }): Promise<bigint[]> {
      const { moved, unlinked } = await db.transaction(async (tx) => {
        const unlinked = await dropLinkages(tx, q);
        const moved = await tx
          .update(devices)
          .set({ mapId: null, x: null, y: null, updatedAt: new Date() })
          .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.id, q.ids)))
          .returning(gatewayOf);
        return { moved, unlinked };
      });
      changed(moved);
      return unlinked;
    },

    /** A gateway's devices: all, those outside any map, or those behind one bridge. */
    async ofGateway(q: { tenantId: bigint; gatewayId: bigint; outmapOnly?: boolean; bridgeId?: bigint }): Promise<DeviceRecord[]> {
      return db
        .select()
        .from(devices)
        .where(
          and(
            eq(devices.tenantId, q.tenantId),
            eq(devices.gatewayId, q.gatewayId),
            q.outmapOnly ? isNull(devices.mapId) : undefined,
            q.bridgeId !== undefined ? eq(devices.bridgeId, q.bridgeId) : undefined,
          ),
        )
        .orderBy(asc(devices.id));
    },

    /** A gateway's bridges with how many devices sit behind each. */
    async bridgesOf({ tenantId, gatewayId }: { tenantId: bigint; gatewayId: bigint }) {
      // Written out: drizzle would render the outer id unqualified, which the inner alias would capture.
      const behind = sql<number>`(select count(*)::int from devices b where b.bridge_id = "devices"."id")`;
      return db
        .select({ ...getTableColumns(devices), deviceCount: behind })
        .from(devices)
        .where(and(eq(devices.tenantId, tenantId), eq(devices.gatewayId, gatewayId), inArray(devices.kind, BRIDGE_KINDS)))
        .orderBy(asc(devices.id));
    },

    /**
     * Inserts the devices a gateway reported that the cloud does not hold yet (by address), then links
     * devices behind bridges to their bridge rows. Answers the rows added. Concurrent imports add each once.
     */
    async importFromGateway(q: {
      tenantId: bigint;
      gatewayId: bigint;
      list: Array<Omit<typeof devices.$inferInsert, 'tenantId' | 'gatewayId' | 'bridgeId'> & { bridgeAddr?: string }>;
      at: Date;
    }): Promise<DeviceRecord[]> {
      if (q.list.length === 0) return [];
      return db.transaction(async (tx) => {
        const added = await tx
          .insert(devices)
          .values(
            q.list.map(({ bridgeAddr: _b, ...d }) => ({
              ...d,
              tenantId: q.tenantId,
              gatewayId: q.gatewayId,
              createdAt: q.at,
              updatedAt: q.at,
            })),
          )
          .onConflictDoNothing({ target: [devices.gatewayId, devices.addr] })
          .returning();
        const behind = q.list.filter((d) => d.bridgeAddr);
        if (behind.length > 0) {
          const bridges = await tx
            .select({ id: devices.id, addr: devices.addr })
            .from(devices)
            .where(and(eq(devices.tenantId, q.tenantId), eq(devices.gatewayId, q.gatewayId), inArray(devices.kind, BRIDGE_KINDS)));
          const byAddr = new Map(bridges.map((b) => [b.addr, b.id]));
          for (const d of behind) {
            const bridgeId = byAddr.get(d.bridgeAddr!);
            if (bridgeId === undefined) continue;
            await tx
              .update(devices)
              .set({ bridgeId })
              .where(
                and(
                  eq(devices.tenantId, q.tenantId),
                  eq(devices.gatewayId, q.gatewayId),
                  eq(devices.addr, d.addr),
                  isNull(devices.bridgeId),
                ),
              );
            const row = added.find((a) => a.addr === d.addr);
            if (row) row.bridgeId = bridgeId;
          }
        }
        return added;
      });
    },

    /** Unbinds a bridge: refused while it or a device behind it is on a map; otherwise they are removed. */
    async unbindBridge({
      tenantId,
      gatewayId,
      bridgeId,
    }: {
      tenantId: bigint;
      gatewayId: bigint;
      bridgeId: bigint;
    }): Promise<'unbound' | 'linked' | 'missing'> {
      return db.transaction(async (tx) => {
        const [bridge] = await tx
          .select({ id: devices.id, mapId: devices.mapId })
          .from(devices)
          .where(
            and(
              eq(devices.tenantId, tenantId),
              eq(devices.gatewayId, gatewayId),
              eq(devices.id, bridgeId),
              inArray(devices.kind, BRIDGE_KINDS),
            ),
          )
          .for('update');
        if (!bridge) return 'missing';
        const [placed] = await tx
          .select({ n: count() })
          .from(devices)
          .where(and(eq(devices.tenantId, tenantId), eq(devices.bridgeId, bridgeId), isNotNull(devices.mapId)));
        if (bridge.mapId !== null || (placed?.n ?? 0) > 0) return 'linked';
        await tx.delete(devices).where(and(eq(devices.tenantId, tenantId), eq(devices.bridgeId, bridgeId)));
        await tx.delete(devices).where(and(eq(devices.tenantId, tenantId), eq(devices.id, bridgeId)));
        return 'unbound';
      });
    },

    /** The members of these groups (the tenant's), with their reported states, in a stable order. */
    inGroups(q: { tenantId: bigint; groupIds: bigint[] }) {
      if (q.groupIds.length === 0) return Promise.resolve([]);
      return selectInGroups()
        .where(and(eq(devices.tenantId, q.tenantId), inArray(groupDevices.groupId, q.groupIds)))
        .orderBy(asc(devices.id));
    },

    /**
     * What the member rules need of each device (the tenant's only): type, gateway, map, and how many groups
     * it is in other than `exceptGroupId`.
     */
    async groupFacts(q: { tenantId: bigint; ids: bigint[]; exceptGroupId?: bigint }) {
      if (q.ids.length === 0) return [];
      const others = groupCounts('others', q.exceptGroupId);
      return db
        .select({
          id: devices.id,
          type: devices.type,
          gatewayId: devices.gatewayId,
          mapId: devices.mapId,
          addr: devices.addr,
          otherGroups: sql<number>`coalesce(${others.n}, 0)::int`,
        })
        .from(devices)
        .leftJoin(others, eq(others.deviceId, devices.id))
        .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.id, q.ids)));
    },

    /** The devices of a map and gateway a group's member picker offers, with their states and group counts. */
    groupCandidates(q: { tenantId: bigint; mapId: bigint; gatewayId: bigint; type?: number }) {
      const counts = groupCounts('counts');
      return db
        .select({
          device: devices,
          buildId: map.buildId,
          mapName: map.name,
          mac: gateways.mac,
          gatewayName: gateways.name,
          gatewayOnline: gateways.online,
          reported: {
            online: lastState.online,
            fault: lastState.fault,
            state: lastState.state,
            reportedAt: lastState.reportedAt,
          },
          groups: sql<number>`coalesce(${counts.n}, 0)::int`,
        })
        .from(devices)
        .innerJoin(gateways, eq(gateways.id, devices.gatewayId))
        .leftJoin(map, eq(map.id, devices.mapId))
        .leftJoin(lastState, and(eq(lastState.gatewayId, devices.gatewayId), eq(lastState.addr, devices.addr)))
        .leftJoin(counts, eq(counts.deviceId, devices.id))
        .where(
          and(
            eq(devices.tenantId, q.tenantId),
            eq(devices.mapId, q.mapId),
            eq(devices.gatewayId, q.gatewayId),
            q.type ? eq(devices.type, q.type) : undefined,
          ),
        )
        .orderBy(asc(devices.id));
    },
  };
}
export type DevicesRepo = ReturnType<typeof createDevicesRepo>;
export type DeviceRow = NonNullable<Awaited<ReturnType<DevicesRepo['find']>>>;
/** What a marker is made of: a DeviceRow has it all, the map read (onMap) only this. */
export type MarkerRow = Awaited<ReturnType<DevicesRepo['onMap']>>[number];
export type GroupMemberRow = Awaited<ReturnType<DevicesRepo['inGroups']>>[number];

/**
 * Every account's devices as a subquery named `alias`, with the columns other domains read (id, tenant_id,
 * gateway_id, addr, bridge_id, name, kind, type, type_status, status, model, map_id, x, y); the reader filters it by its account or
 * joins it on its own account's rows.
 */
export function devicesAnyTenant(alias = 'd') {
  return new QueryBuilder()
    .select({
      id: devices.id,
      tenantId: devices.tenantId,
      gatewayId: devices.gatewayId,
      addr: devices.addr,
      bridgeId: devices.bridgeId,
      name: devices.name,
      kind: devices.kind,
      type: devices.type,
      typeStatus: devices.typeStatus,
      status: devices.status,
      model: devices.model,
      mapId: devices.mapId,
      x: devices.x,
      y: devices.y,
    })
    .from(devices)
    .as(alias);
}

/** Every account's devices, whole rows, as a subquery named `alias`: what the audit reads an edit's values before it from. */
export function deviceRecordsAnyTenant(alias = 'd') {
  return new QueryBuilder().select(getTableColumns(devices)).from(devices).as(alias);
}

/** The bytes each account's device rows take, for the platform's storage count (`rowBytesByTenant`). */
export const deviceBytesByTenant = () => rowBytesByTenant(devices);
