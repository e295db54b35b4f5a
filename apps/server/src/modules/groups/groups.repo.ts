import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { devices, gateways, groupDevices, groups } from '../../db/schema/index.ts';

/** A group with what the group screen shows of its gateway. */
function groupColumns() {
  return {
    group: groups,
    gateway: {
      name: gateways.name,
      mac: gateways.mac,
      online: gateways.online,
      configVersion: gateways.configVersion,
      syncedVersion: gateways.syncedVersion,
      info: gateways.info,
    },
  };
}

/** Queries of groups and their members; every one takes the tenant, so another account's ids match nothing. */
export function createGroupsRepo(db: Db) {
  const selectGroups = () =>
    db
      .select(groupColumns())
      .from(groups)
      // The gateway must still be the tenant's: a group of a gateway that went back to the pool is not shown.
      .innerJoin(gateways, and(eq(gateways.id, groups.gatewayId), eq(gateways.tenantId, groups.tenantId)));

  return {
    async find(q: { tenantId: bigint; id: bigint }) {
      const [row] = await selectGroups()
        .where(and(eq(groups.tenantId, q.tenantId), eq(groups.id, q.id)))
        .limit(1);
      return row;
    },

    onMap(q: { tenantId: bigint; mapId: bigint }) {
      return selectGroups()
        .where(and(eq(groups.tenantId, q.tenantId), eq(groups.mapId, q.mapId)))
        .orderBy(asc(groups.name), asc(groups.id));
    },

    onGateway(q: { tenantId: bigint; gatewayId: bigint }) {
      return selectGroups()
        .where(and(eq(groups.tenantId, q.tenantId), eq(groups.gatewayId, q.gatewayId)))
        .orderBy(asc(groups.number));
    },

    /** A gateway of the tenant: its map and its large group number, which group numbers avoid. */
    async gateway(q: { tenantId: bigint; id: bigint }) {
      const [row] = await db
        .select({ id: gateways.id, mac: gateways.mac, mapId: gateways.mapId, info: gateways.info, configVersion: gateways.configVersion })
        .from(gateways)
        .where(and(eq(gateways.tenantId, q.tenantId), eq(gateways.id, q.id)))
        .limit(1);
      return row;
    },

    async configVersion(q: { tenantId: bigint; gatewayId: bigint }): Promise<number> {
      const [row] = await db
        .select({ v: gateways.configVersion })
        .from(gateways)
        .where(and(eq(gateways.tenantId, q.tenantId), eq(gateways.id, q.gatewayId)));
      return row?.v ?? 0;
    },

    async memberIds(q: { groupId: bigint }): Promise<bigint[]> {
      const rows = await db.select({ id: groupDevices.deviceId }).from(groupDevices).where(eq(groupDevices.groupId, q.groupId));
      return rows.map((r) => r.id);
    },

    /**
     * Groups a gateway kept from an account it no longer belongs to (unbound, then bound by another): they
     * would hold group numbers the new account cannot see, so they go.
     */
    async dropStale(q: { gatewayId: bigint; tenantId: bigint }) {
      await db.delete(groups).where(and(eq(groups.gatewayId, q.gatewayId), ne(groups.tenantId, q.tenantId)));
    },

    /**
     * For each DALI bus (bridge) of the given DALI devices, how many groups other than `exceptGroupId` already
     * hold a device of that bus: a bus maps the gateway's groups onto its 16 DALI groups.
     */
    async daliBusGroups(q: { tenantId: bigint; deviceIds: bigint[]; exceptGroupId?: bigint }): Promise<number[]> {
      if (q.deviceIds.length === 0) return [];
      const buses = db
        .select({ bridgeId: devices.bridgeId })
        .from(devices)
        .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.id, q.deviceIds), eq(devices.kind, 'dali')));
      const rows = await db
        .select({ n: sql<number>`count(distinct ${groupDevices.groupId})::int` })
        .from(devices)
        .innerJoin(groupDevices, eq(groupDevices.deviceId, devices.id))
        .where(
          and(
            eq(devices.tenantId, q.tenantId),
            eq(devices.kind, 'dali'),
            inArray(devices.bridgeId, buses),
            q.exceptGroupId === undefined ? undefined : ne(groupDevices.groupId, q.exceptGroupId),
          ),
        )
        .groupBy(devices.bridgeId);
      return rows.map((r) => r.n);
    },

    async usedNumbers(q: { gatewayId: bigint }): Promise<number[]> {
      const rows = await db.select({ n: groups.number }).from(groups).where(eq(groups.gatewayId, q.gatewayId));
      return rows.map((r) => r.n);
    },

    async nameTaken(q: { mapId: bigint; name: string; exceptId?: bigint }): Promise<boolean> {
      const rows = await db
        .select({ id: groups.id })
        .from(groups)
        .where(and(eq(groups.mapId, q.mapId), eq(groups.name, q.name), q.exceptId === undefined ? undefined : ne(groups.id, q.exceptId)))
        .limit(1);
      return rows.length > 0;
    },

    /** Creates a group with its members in one transaction; answers its id. */
    async insert(q: {
      tenantId: bigint;
      gatewayId: bigint;
      mapId: bigint;
      name: string;
      number: number;
      type: number;
      memberIds: bigint[];
    }): Promise<bigint> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(groups)
          .values({ tenantId: q.tenantId, gatewayId: q.gatewayId, mapId: q.mapId, name: q.name, number: q.number, type: q.type })
          .returning({ id: groups.id });
        await tx.insert(groupDevices).values(q.memberIds.map((deviceId) => ({ groupId: row!.id, deviceId })));
        return row!.id;
      });
    },

    /** Renames a group and/or replaces its members, in one transaction. */
    async update(q: { tenantId: bigint; id: bigint; name?: string; type?: number; memberIds?: bigint[] }) {
      await db.transaction(async (tx) => {
        await tx
          .update(groups)
          .set({
            ...(q.name !== undefined ? { name: q.name } : {}),
            ...(q.type !== undefined ? { type: q.type } : {}),
            updatedAt: new Date(),
          })
          .where(and(eq(groups.tenantId, q.tenantId), eq(groups.id, q.id)));
        if (q.memberIds) {
          await tx.delete(groupDevices).where(eq(groupDevices.groupId, q.id));
          if (q.memberIds.length) await tx.insert(groupDevices).values(q.memberIds.map((deviceId) => ({ groupId: q.id, deviceId })));
        }
      });
    },

    /** The gateway configuration version that first carries the group's current members. */
    async setMemberVersion(q: { tenantId: bigint; id: bigint; version: number }) {
      await db
        .update(groups)
        .set({ memberVersion: q.version })
        .where(and(eq(groups.tenantId, q.tenantId), eq(groups.id, q.id)));
    },

    async remove(q: { tenantId: bigint; id: bigint }) {
      await db.delete(groups).where(and(eq(groups.tenantId, q.tenantId), eq(groups.id, q.id)));
    },

    /** The group table a gateway should run: number, name and member addresses of each of its groups. */
    async table(q: { tenantId: bigint; gatewayId: bigint }) {
      const rows = await db
        .select({ number: groups.number, name: groups.name, addr: devices.addr })
        .from(groups)
        .innerJoin(groupDevices, eq(groupDevices.groupId, groups.id))
        .innerJoin(devices, and(eq(devices.id, groupDevices.deviceId), eq(devices.gatewayId, groups.gatewayId)))
        .where(and(eq(groups.tenantId, q.tenantId), eq(groups.gatewayId, q.gatewayId)))
        .orderBy(asc(groups.number), asc(devices.id));
      const table = new Map<number, { id: number; name: string; devices: string[] }>();
      for (const r of rows) {
        const entry = table.get(r.number) ?? { id: r.number, name: r.name, devices: [] };
        entry.devices.push(r.addr);
        table.set(r.number, entry);
      }
      return [...table.values()];
    },
  };
}
export type GroupsRepo = ReturnType<typeof createGroupsRepo>;
export type GroupRow = NonNullable<Awaited<ReturnType<GroupsRepo['find']>>>;
