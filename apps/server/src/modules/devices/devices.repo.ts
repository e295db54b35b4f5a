import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { devices, deviceStates, gateways, maps } from '../../db/schema/index.ts';

/** The columns every device read needs: the row, its map's building, its gateway's MAC and its reported state. */
function deviceColumns() {
  return {
    device: devices,
    buildId: maps.buildId,
    mac: gateways.mac,
    reported: {
      online: deviceStates.online,
      fault: deviceStates.fault,
      state: deviceStates.state,
      reportedAt: deviceStates.reportedAt,
    },
  };
}

/** Queries of devices; every one takes the tenant, so another account's ids match nothing. */
export function createDevicesRepo(db: Db) {
  const select = () =>
    db
      .select(deviceColumns())
      .from(devices)
      .innerJoin(gateways, eq(gateways.id, devices.gatewayId))
      .leftJoin(maps, eq(maps.id, devices.mapId))
      // Reports store the address upper case (report writer); the import keeps what devices.list said.
      .leftJoin(deviceStates, and(eq(deviceStates.gatewayId, devices.gatewayId), eq(deviceStates.addr, sql`upper(${devices.addr})`)));

  return {
    async find(q: { tenantId: bigint; id: bigint }) {
      const [row] = await select()
        .where(and(eq(devices.tenantId, q.tenantId), eq(devices.id, q.id)))
        .limit(1);
      return row;
    },

    /** The devices placed on a map, in a stable order. */
    onMap(q: { tenantId: bigint; mapId: bigint }) {
      return select()
        .where(and(eq(devices.tenantId, q.tenantId), eq(devices.mapId, q.mapId)))
        .orderBy(asc(devices.id));
    },

    /** The placed devices a gateway reported about, for the map topics (called by the report path, no caller). */
    reportedOnMaps(q: { mac: string; addrs: string[] }) {
      if (q.addrs.length === 0) return Promise.resolve([]);
      return select().where(
        and(eq(gateways.mac, q.mac), eq(devices.tenantId, gateways.tenantId), inArray(sql`upper(${devices.addr})`, q.addrs), sql`${devices.mapId} is not null`),
      );
    },

    /** How many of the ids the tenant holds. */
    async countOwned(q: { tenantId: bigint; ids: bigint[] }): Promise<number> {
      const rows = await db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.id, q.ids)));
      return rows.length;
    },

    async rename(q: { tenantId: bigint; id: bigint; name: string }) {
      await db
        .update(devices)
        .set({ name: q.name, updatedAt: new Date() })
        .where(and(eq(devices.tenantId, q.tenantId), eq(devices.id, q.id)));
    },

    /** Places devices on a map at their positions, in one transaction. */
    async place(q: { tenantId: bigint; mapId: bigint; placements: Array<{ id: bigint; x: number; y: number }> }) {
      await db.transaction(async (tx) => {
        for (const p of q.placements) {
          await tx
            .update(devices)
            .set({ mapId: q.mapId, x: p.x, y: p.y, updatedAt: new Date() })
            .where(and(eq(devices.tenantId, q.tenantId), eq(devices.id, p.id)));
        }
      });
    },

    /** The ids of those devices that are on the given map. */
    async idsOnMap(q: { tenantId: bigint; mapId: bigint; ids: bigint[] }): Promise<bigint[]> {
      const rows = await db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.tenantId, q.tenantId), eq(devices.mapId, q.mapId), inArray(devices.id, q.ids)));
      return rows.map((r) => r.id);
    },

    /** Takes devices off their maps: they become outmap and lose their position. */
    async unplace(q: { tenantId: bigint; ids: bigint[] }) {
      await db
        .update(devices)
        .set({ mapId: null, x: null, y: null, updatedAt: new Date() })
        .where(and(eq(devices.tenantId, q.tenantId), inArray(devices.id, q.ids)));
    },
  };
}
export type DevicesRepo = ReturnType<typeof createDevicesRepo>;
export type DeviceRow = NonNullable<Awaited<ReturnType<DevicesRepo['find']>>>;
