import type { MapDevice } from '@lumigrid/contract';

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

/** An empty port, for unit tests of the projects services that need no database. */
export const noDevicesYet: MapDevicesPort = {
  mapHasDevices: async () => false,
  deviceCounts: async () => new Map(),
  devicesOn: async () => ({ total: 0, list: [] }),
};
