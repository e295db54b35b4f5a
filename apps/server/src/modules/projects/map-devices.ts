import type { MapDevice } from '@lumigrid/contract';
import { and, asc, count, eq, ilike, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { devices, gateways, maps } from '../../db/schema/index.ts';
import { likePattern } from './projects.repo.ts';

/**
 * What the projects domain needs to know about devices on maps, behind an interface so that projects does
 * not reach into the devices domain's rows.
 */
export interface MapDevicesPort {
  /** Whether anything is placed on the map: a device, or a gateway bound to it. */
  mapHasDevices(q: { tenantId: bigint; mapId: bigint }): Promise<boolean>;
  /** Devices per map, for the maps given; maps without devices may be absent. */
  deviceCounts(q: { tenantId: bigint; mapIds: bigint[] }): Promise<Map<bigint, number>>;
  /** A page of the devices on a map. */
  devicesOn(q: {
    tenantId: bigint;
    mapId: bigint;
    name?: string;
    offset: number;
    limit: number;
  }): Promise<{ total: number; list: MapDevice[] }>;
}

/** The devices table behind the port; every query filters by the tenant. */
export function createMapDevices(db: Db): MapDevicesPort {
  return {
    // A gateway bound to the map counts too: deleting the map would leave it bound to nothing (280005).
    async mapHasDevices({ tenantId, mapId }) {
      const [device] = await db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.tenantId, tenantId), eq(devices.mapId, mapId)))
        .limit(1);
      if (device) return true;
      const [gateway] = await db
        .select({ id: gateways.id })
        .from(gateways)
        .where(and(eq(gateways.tenantId, tenantId), eq(gateways.mapId, mapId)))
        .limit(1);
      return gateway !== undefined;
    },

    async deviceCounts({ tenantId, mapIds }) {
      if (mapIds.length === 0) return new Map();
      const rows = await db
        .select({ mapId: devices.mapId, n: count() })
        .from(devices)
        .where(and(eq(devices.tenantId, tenantId), inArray(devices.mapId, mapIds)))
        .groupBy(devices.mapId);
      return new Map(rows.flatMap((r) => (r.mapId === null ? [] : [[r.mapId, r.n] as const])));
    },

    async devicesOn({ tenantId, mapId, name, offset, limit }) {
      const where = and(
        eq(devices.tenantId, tenantId),
        eq(devices.mapId, mapId),
        name ? ilike(devices.name, likePattern(name)) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(devices).where(where);
      const rows = await db
        .select({
          id: devices.id,
          name: devices.name,
          type: devices.type,
          typeStatus: devices.typeStatus,
          status: devices.status,
          mapId: devices.mapId,
          buildId: maps.buildId,
        })
        .from(devices)
        .innerJoin(maps, eq(maps.id, devices.mapId))
        .where(where)
        .orderBy(asc(devices.name), asc(devices.id))
        .offset(offset)
        .limit(limit);
      return {
        total: total?.n ?? 0,
        list: rows.map((r) => ({
          id: String(r.id),
          name: r.name,
          type: r.type,
          typeStatus: r.typeStatus,
          status: r.status,
          map_id: String(r.mapId),
          build_id: String(r.buildId),
        })),
      };
    },
  };
}

/** An empty port, for unit tests of the projects services that need no database. */
export const noDevicesYet: MapDevicesPort = {
  mapHasDevices: async () => false,
  deviceCounts: async () => new Map(),
  devicesOn: async () => ({ total: 0, list: [] }),
};
