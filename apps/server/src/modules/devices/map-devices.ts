import { and, asc, count, eq, ilike, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { OwnedReads } from '../../db/owned-reads.ts';
import { devices } from '../../db/schema/index.ts';
import { deviceStatesAnyTenant } from '../device-reports/device-states.ts';
import { mapPlaces } from '../projects/maps.repo.ts';
import { currentState } from './devices.mappers.ts';
import type { MapDevicesPort } from '../projects/map-devices-port.ts';
import { likePattern } from '../projects/projects.repo.ts';

const map = mapPlaces('map');
const lastState = deviceStatesAnyTenant('last_state');

/**
 * The devices table behind the projects domain's port; every query filters by the tenant. Gateways are read through
 * their owner's subquery (`reads`: the gateways domain imports this one).
 */
export function createMapDevices(db: Db, reads: Pick<OwnedReads, 'gateways'>): MapDevicesPort {
  const gateways = reads.gateways('gateways');
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
          device: { id: devices.id, name: devices.name, type: devices.type, typeStatus: devices.typeStatus, status: devices.status },
          mapId: devices.mapId,
          buildId: map.buildId,
          gatewayOnline: gateways.online,
          reported: { online: lastState.online, fault: lastState.fault, state: lastState.state },
        })
        .from(devices)
        .innerJoin(map, eq(map.id, devices.mapId))
        .innerJoin(gateways, eq(gateways.id, devices.gatewayId))
        .leftJoin(lastState, and(eq(lastState.gatewayId, devices.gatewayId), eq(lastState.addr, devices.addr)))
        .where(where)
        .orderBy(asc(devices.name), asc(devices.id))
        .offset(offset)
        .limit(limit);
      return {
        total: total?.n ?? 0,
        // The state every other view shows: the last report, offline behind a gateway that is not online.
        list: rows.map((r) => {
          const now = currentState(r);
          return {
            id: String(r.device.id),
            name: r.device.name,
            type: r.device.type,
            typeStatus: now.typeStatus,
            status: now.status,
            map_id: String(r.mapId),
            build_id: String(r.buildId),
          };
        }),
      };
    },
  };
}
