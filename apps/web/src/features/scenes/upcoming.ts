import { nextRuns, type Schedule } from '@lumigrid/protocol';
import type { SceneFields } from '@lumigrid/contract/browser';

/** Where a gateway runs its schedules, as the gateway list gives it. */
export interface GatewayPlace {
  gatewayId: string;
  gatewayName: string;
  latitude: number | null;
  longitude: number | null;
  timezone: string | null;
}

/** One upcoming run of a scene: when, what it does, on which gateway, and the zone that gateway keeps time in. */
export interface UpcomingRun {
  at: number;
  then: 'start' | 'end';
  gatewayId: string;
  timezone: string;
}

/** The zone a gateway runs its schedules in until one is set, as the gateways do. */
export const DEFAULT_GATEWAY_ZONE = 'UTC';

type Timing = Pick<SceneFields, 'triggers' | 'days' | 'from' | 'to' | 'skipHolidays'>;

/** The gateway schedules the scene's triggers become, numbered from 1 in trigger order (as the server numbers none: a preview only). */
export function previewSchedules(timing: Timing): Schedule[] {
  return timing.triggers.map((trigger, index) => ({
    id: index + 1,
    scene: 1,
    days: [...timing.days],
    at: trigger.at,
    offsetMin: trigger.offsetMin,
    ...(timing.from ? { from: timing.from } : {}),
    ...(timing.to ? { to: timing.to } : {}),
    skipHolidays: timing.skipHolidays,
  }));
}

/** Whether a gateway has the position sunrise and sunset need. */
export function isLocated(place: GatewayPlace): boolean {
  return place.latitude !== null && place.longitude !== null;
}

/**
 * The next `count` runs of a scene not saved yet, computed in the browser by the code the gateways run
 * (packages/protocol schedule.ts), on each gateway its members are on, in that gateway's time zone. Gateways
 * without a position give no sun-relative runs; `unlocated` names them (the server refuses them with 310009).
 */
export function previewRuns(
  timing: Timing,
  gateways: readonly GatewayPlace[],
  holidays: readonly string[],
  from: number,
  count = 7,
): { runs: UpcomingRun[]; unlocated: GatewayPlace[] } {
  const schedules = previewSchedules(timing);
  const sunRelative = timing.triggers.some((t) => t.at === 'sunrise' || t.at === 'sunset');
  const unlocated = sunRelative ? gateways.filter((g) => !isLocated(g)) : [];
  const runs = gateways.flatMap((gateway) =>
    nextRuns(
      schedules,
      {
        latitude: gateway.latitude ?? undefined,
        longitude: gateway.longitude ?? undefined,
        timezone: gateway.timezone ?? undefined,
      },
      holidays,
      from,
      count,
    ).map((run) => ({
      at: run.at,
      then: timing.triggers[run.schedule - 1]?.then ?? 'start',
      gatewayId: gateway.gatewayId,
      timezone: gateway.timezone ?? DEFAULT_GATEWAY_ZONE,
    })),
  );
  runs.sort((a, b) => a.at - b.at || a.gatewayId.localeCompare(b.gatewayId));
  return { runs: runs.slice(0, count), unlocated };
}
