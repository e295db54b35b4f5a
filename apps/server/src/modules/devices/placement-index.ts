import { mapDestination, type DeviceMarker, type MapTopicMessage } from '@lumigrid/contract';
import type { DeviceState } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { RealtimeBus } from '../../realtime/realtime-bus.ts';
import { mapMarker } from './devices.mappers.ts';
import type { MarkerRow } from './devices.repo.ts';

/** A placed device as the index holds it: what its marker is made of, and its address on its gateway. */
export type PlacedDevice = MarkerRow['device'] & { addr: string };

/** The placed devices behind one gateway, by address. */
interface GatewayPlacements {
  gatewayId: bigint;
  byAddr: Map<string, PlacedDevice & { mapId: bigint }>;
}

/** Told by the device and gateway queries after every change to which device is where, named or typed how. */
export interface PlacementChanges {
  changed(gatewayIds: readonly bigint[]): void;
}

/** A load that raced this many changes is used once, not kept. */
const LOAD_TRIES = 3;

/**
 * Which device of a gateway is placed on which map, in memory, so a gateway's report reaches the map topics
 * as soon as it is decoded, before it is written. A gateway's placements are read on its first report and
 * kept until a change touches one of its devices; the change is announced on the real-time bus, so every
 * server node forgets it (the node that made it at once, the others when the bus delivers). Reports of one
 * gateway are published in arrival order, also while its placements are being read.
 */
export function createPlacementIndex(deps: {
  /** The placed devices behind a gateway, or undefined when no account holds it. */
  load: (mac: string) => Promise<{ gatewayId: bigint; devices: PlacedDevice[] } | undefined>;
  publish: (destination: string, message: MapTopicMessage) => void;
  /** Also told each marker published, with its map (webhook events); must not wait on anything. */
  onMarker?: (mapId: bigint, marker: DeviceMarker) => void;
  bus: RealtimeBus;
  logger: FastifyBaseLogger;
}) {
  const byMac = new Map<string, GatewayPlacements>();
  const macOf = new Map<bigint, string>();
  // Reports of a gateway whose placements are being read wait here, in order.
  const queued = new Map<string, Promise<void>>();
  // Raised by every change; a load that saw it change reads again.
  let generation = 0;

  function forget(gatewayIds: readonly bigint[]) {
    generation++;
    for (const id of gatewayIds) {
      const mac = macOf.get(id);
      if (mac === undefined) continue;
      macOf.delete(id);
      byMac.delete(mac);
    }
  }
  deps.bus.subscribe((event) => {
    if (event.kind === 'placementsChanged') forget(event.gatewayIds.map(BigInt));
  });

  async function placementsOf(mac: string): Promise<GatewayPlacements | undefined> {
    let loaded: GatewayPlacements | undefined;
    for (let attempt = 0; attempt < LOAD_TRIES; attempt++) {
      const cached = byMac.get(mac);
      if (cached) return cached;
      const seen = generation;
      const read = await deps.load(mac);
      if (!read) return undefined;
      loaded = { gatewayId: read.gatewayId, byAddr: new Map() };
      for (const d of read.devices) if (d.mapId !== null) loaded.byAddr.set(d.addr, { ...d, mapId: d.mapId });
      if (seen === generation) {
        byMac.set(mac, loaded);
        macOf.set(read.gatewayId, mac);
        return loaded;
      }
    }
    return loaded;
  }

  function publish(placements: GatewayPlacements, reports: readonly DeviceState[]) {
    for (const report of reports) {
      const device = placements.byAddr.get(report.addr);
      if (!device) continue;
      // A report comes from a gateway that is online.
      const marker = mapMarker({ device, gatewayOnline: true, reported: { online: report.online, fault: report.fault, state: report } });
      deps.publish(mapDestination(device.mapId), marker);
      deps.onMarker?.(device.mapId, marker);
    }
  }

  /** The maps of the placed devices among `addrs`, each told which of its devices' states are stored. */
  function publishStored(placements: GatewayPlacements, addrs: readonly string[]) {
    const byMap = new Map<bigint, string[]>();
    for (const addr of addrs) {
      const device = placements.byAddr.get(addr);
      if (!device) continue;
      const ids = byMap.get(device.mapId);
      if (ids) ids.push(String(device.id));
      else byMap.set(device.mapId, [String(device.id)]);
    }
    for (const [mapId, stored] of byMap) deps.publish(mapDestination(mapId), { stored });
  }

  /** Runs `tell` with a gateway's placements after everything told about the gateway before it. */
  function inOrder(mac: string, tell: (placements: GatewayPlacements) => void, what: string) {
    const cached = byMac.get(mac);
    if (cached && !queued.has(mac)) return tell(cached);
    const before = queued.get(mac) ?? Promise.resolve();
    const next = before
      .then(() => placementsOf(mac))
      .then((placements) => placements && tell(placements))
      .catch((err: unknown) => deps.logger.warn({ err, mac }, `map topics not told about ${what}`))
      .finally(() => {
        if (queued.get(mac) === next) queued.delete(mac);
      });
    queued.set(mac, next);
  }

  return {
    /** A decoded report of a gateway: its placed devices go to their maps' topics, in arrival order. */
    report(mac: string, reports: readonly DeviceState[]): void {
      inOrder(mac, (placements) => publish(placements, reports), 'a report');
    },
    /** The reported states of these devices of a gateway are written: their maps hear so, after the markers. */
    stored(mac: string, addrs: readonly string[]): void {
      inOrder(mac, (placements) => publishStored(placements, addrs), 'stored states');
    },
    /** The queries call this after a change is committed: this node forgets at once, the others through the bus. */
    changed(gatewayIds: readonly bigint[]): void {
      if (gatewayIds.length === 0) return;
      const unique = [...new Set(gatewayIds)];
      forget(unique);
      deps.bus.publish({ kind: 'placementsChanged', gatewayIds: unique.map(String) });
    },
    /** Whether a gateway's placements are held (tests: each node has read them). */
    holds(mac: string): boolean {
      return byMac.has(mac);
    },
    /**
     * The map the held placements put a gateway's device on, if held (tests: whether a node still believes a
     * device is where it was; a report arriving just after a change reads the placements again at once).
     */
    heldMapOf(mac: string, addr: string): bigint | undefined {
      return byMac.get(mac)?.byAddr.get(addr)?.mapId;
    },
    /** Resolves when every report received so far has been published. */
    async settled(): Promise<void> {
      while (queued.size > 0) await Promise.all(queued.values());
    },
  };
}
export type PlacementIndex = ReturnType<typeof createPlacementIndex>;
