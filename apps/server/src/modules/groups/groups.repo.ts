import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { groupDevices, groups } from '../../db/schema/index.ts';
import { devicesAnyTenant } from '../devices/devices.repo.ts';
import { gatewaysAnyTenant } from '../gateways/gateways.repo.ts';

/** A group's gateway and members, read through their owners' subqueries. */
const gateway = gatewaysAnyTenant();
const device = devicesAnyTenant();

/** A group with what the group screen shows of its gateway. */
function groupColumns() {
  return {
    group: groups,
    gateway: {
      name: gateway.name,
      mac: gateway.mac,
      online: gateway.online,
      configVersion: gateway.configVersion,
      syncedVersion: gateway.syncedVersion,
      info: gateway.info,
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
      .innerJoin(gateway, and(eq(gateway.id, groups.gatewayId), eq(gateway.tenantId, groups.tenantId)));

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
        .select({ id: gateway.id, mac: gateway.mac, mapId: gateway.mapId, info: gateway.info, configVersion: gateway.configVersion })
        .from(gateway)
        .where(and(eq(gateway.tenantId, q.tenantId), eq(gateway.id, q.id)))
        .limit(1);
      return row;
    },

    async configVersion(q: { tenantId: bigint; gatewayId: bigint }): Promise<number> {
      const [row] = await db
        .select({ v: gateway.configVersion })
        .from(gateway)
        .where(and(eq(gateway.tenantId, q.tenantId), eq(gateway.id, q.gatewayId)));
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
      const bus = devicesAnyTenant('bus');
      const buses = db
        .select({ bridgeId: bus.bridgeId })
        .from(bus)
        .where(and(eq(bus.tenantId, q.tenantId), inArray(bus.id, q.deviceIds), eq(bus.kind, 'dali')));
      const rows = await db
        .select({ n: sql<number>`count(distinct ${groupDevices.groupId})::int` })
        .from(device)
        .innerJoin(groupDevices, eq(groupDevices.deviceId, device.id))
        .where(
          and(
            eq(device.tenantId, q.tenantId),
            eq(device.kind, 'dali'),
            inArray(device.bridgeId, buses),
            q.exceptGroupId === undefined ? undefined : ne(groupDevices.groupId, q.exceptGroupId),
          ),
        )
        .groupBy(device.bridgeId);
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
        .select({ number: groups.number, name: groups.name, addr: device.addr })
        .from(groups)
        .innerJoin(groupDevices, eq(groupDevices.groupId, groups.id))
        .innerJoin(device, and(eq(device.id, groupDevices.deviceId), eq(device.gatewayId, groups.gatewayId)))
        .where(and(eq(groups.tenantId, q.tenantId), eq(groups.gatewayId, q.gatewayId)))
        .orderBy(asc(groups.number), asc(device.id));
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
