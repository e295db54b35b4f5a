import { WEBHOOK_LIMITS, type DeviceMarker } from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import type { WebhookEvents } from './webhooks.service.ts';
import type { MapsRepo } from '../projects/maps.repo.ts';
import type { WebhooksRepo } from './webhooks.repo.ts';

/** How long a map's device changes are gathered into one event: a busy map sends one a second, not hundreds. */
export const DEVICE_EVENT_GATHER_MS = 1000;
/** How often this node reads again which accounts take device events (a change on this node counts at once). */
const INTERESTED_TTL_MS = 30_000;

/**
 * Turns the markers published to the map topics into `device.stateChanged` events, one per map and second with
 * each device's last marker. It sits on the live path, so it does nothing but a set lookup while no account
 * takes these events, and never waits on the database there.
 */
export function createDeviceStateEvents(deps: {
  repo: Pick<WebhooksRepo, 'tenantsTakingAnyTenant'>;
  /** Whose a map is: device events know only the map. */
  maps: Pick<MapsRepo, 'placeAnyTenant'>;
  events: WebhookEvents;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'warn'>;
  gatherMs?: number;
}) {
  let interested = new Set<bigint>();
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  const gathered = new Map<bigint, Map<string, DeviceMarker>>();
  let timer: NodeJS.Timeout | undefined;

  function refresh() {
    reading ??= deps.repo
      .tenantsTakingAnyTenant({ kind: 'device.stateChanged' })
      .then((tenants) => {
        interested = tenants;
        readAt = deps.clock.now().getTime();
      })
      .catch((err: unknown) => deps.logger.warn({ err }, 'accounts taking device events not read'))
      .finally(() => (reading = undefined));
    return reading;
  }

  function flush() {
    timer = undefined;
    const maps = [...gathered];
    gathered.clear();
    for (const [mapId, markers] of maps) {
      const devices = [...markers.values()];
      for (let i = 0; i < devices.length; i += WEBHOOK_LIMITS.devicesPerEvent) {
        const chunk = devices.slice(i, i + WEBHOOK_LIMITS.devicesPerEvent);
        deps.events.emit(async () => {
          const place = await deps.maps.placeAnyTenant({ id: mapId });
          if (!place || !interested.has(place.tenantId)) return undefined;
          return {
            kind: 'device.stateChanged',
            tenantId: place.tenantId,
            projectId: place.projectId,
            at: deps.clock.now(),
            data: { mapId: String(mapId), devices: chunk },
          };
        });
      }
    }
  }

  return {
    /** A marker published to a map's topic. */
    marker(mapId: bigint, marker: DeviceMarker): void {
      if (deps.clock.now().getTime() - readAt > INTERESTED_TTL_MS) void refresh();
      if (interested.size === 0) return;
      let markers = gathered.get(mapId);
      if (!markers) gathered.set(mapId, (markers = new Map()));
      markers.set(marker.id, marker);
      timer ??= setTimeout(flush, deps.gatherMs ?? DEVICE_EVENT_GATHER_MS);
    },
    /** An endpoint changed on this node: read again before the next marker. */
    endpointsChanged: () => refresh(),
    /** Sends what is gathered now (tests, shutdown). */
    flush(): void {
      clearTimeout(timer);
      flush();
    },
    close(): void {
      clearTimeout(timer);
    },
  };
}
export type DeviceStateEvents = ReturnType<typeof createDeviceStateEvents>;
