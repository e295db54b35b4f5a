import { emergencyCategory, emergencyDestination, type EmergencyLightMessage } from '@lumigrid/contract';
import type { DecodedUp } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { RealtimeBus } from '../../realtime/realtime-bus.ts';
import type { EmergencyRepo } from './emergency.repo.ts';

interface Watched {
  id: bigint;
  mapId: bigint;
  /** What was last published: state, battery, online. */
  last: string;
}

/**
 * Tells each map's emergency topic when a light's reported emergency state, battery or presence changes (charging,
 * fully charged, offline...), so the emergency device map recolours without polling. A gateway's placed emergency
 * lights are read once and forgotten when its placements change (placementsChanged); unchanged reports publish
 * nothing.
 */
export function createEmergencyLive(deps: {
  repo: Pick<EmergencyRepo, 'placedLightsAnyTenant'>;
  bus: Pick<RealtimeBus, 'subscribe'>;
  publish: (destination: string, message: EmergencyLightMessage) => void;
  logger: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const byMac = new Map<string, Promise<Map<string, Watched>>>();
  const macOfGateway = new Map<string, string>();
  const unsubscribe = deps.bus.subscribe((event) => {
    if (event.kind !== 'placementsChanged') return;
    for (const id of event.gatewayIds) {
      const mac = macOfGateway.get(id);
      if (mac !== undefined) byMac.delete(mac);
    }
  });

  function lightsOf(mac: string) {
    let known = byMac.get(mac);
    if (!known) {
      known = deps.repo.placedLightsAnyTenant(mac).then((read) => {
        const map = new Map<string, Watched>();
        if (!read) return map;
        macOfGateway.set(String(read.gatewayId), mac);
        for (const row of read.lights) if (row.mapId !== null) map.set(row.addr, { id: row.id, mapId: row.mapId, last: '' });
        return map;
      });
      byMac.set(mac, known);
      known.catch(() => byMac.delete(mac));
    }
    return known;
  }

  return {
    onUp(message: DecodedUp): void {
      if (message.channel !== 'report') return;
      const reported = message.message.devices.filter((d) => d.emergencyState !== undefined || d.battery !== undefined);
      if (reported.length === 0) return;
      void lightsOf(message.mac)
        .then((lights) => {
          for (const d of reported) {
            const light = lights.get(d.addr);
            if (!light) continue;
            const state = d.emergencyState ?? null;
            const battery = d.battery ?? null;
            const key = `${state}/${battery}/${d.online}`;
            if (key === light.last) continue;
            light.last = key;
            deps.publish(emergencyDestination(light.mapId), {
              kind: 'light',
              deviceId: String(light.id),
              state,
              category: emergencyCategory(state, d.online),
              battery,
              online: d.online,
              runId: null,
              taskId: null,
              progress: null,
              result: null,
            });
          }
        })
        .catch((err: unknown) => deps.logger.warn({ err, mac: message.mac }, 'emergency lights not told about a report'));
    },
    close: unsubscribe,
  };
}
