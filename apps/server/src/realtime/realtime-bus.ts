import type { ErrorCode } from '@lumigrid/contract';

/** A message for every subscriber of a destination, on whichever server node its socket is. */
export interface MessageEvent {
  kind: 'message';
  destination: string;
  /** The JSON text of the payload. */
  body: string;
}

/**
 * Sessions ended on the server: their sockets close, on every node. Ids are strings so the event
 * serialises as JSON for a cross-node bus.
 */
export interface SessionsEndedEvent {
  kind: 'sessionsEnded';
  userId: string;
  /** Only this session; without it every session of the user but `exceptSessionId`. */
  sessionId?: string;
  exceptSessionId?: string;
  /** Why, as a business code: the ERROR frame and the forced-logout notice carry it. */
  code: ErrorCode;
  /** Send the type 0 forced-logout notice first (not when the session signed itself out). */
  notify: boolean;
}

/**
 * Devices of these gateways were placed, moved, renamed, retyped or deleted, or the gateways were bound, unbound
 * or moved: every node forgets what it holds of their placements (modules/devices/placement-index.ts) and of
 * the gateways themselves (modules/device-reports/gateway-directory.ts), and reads them again on their next report.
 */
export interface PlacementsChangedEvent {
  kind: 'placementsChanged';
  gatewayIds: string[];
}

/** A node that is stopping queued its running jobs again: the other nodes look for due jobs now, not at their next poll. */
export interface JobsHandedBackEvent {
  kind: 'jobsHandedBack';
}

/** Where a fault is, as the alert tracker raised it; ids are strings so the event serialises as JSON. */
export interface RaisedFault {
  tenantId: string;
  gatewayName: string;
  deviceId: string | null;
  name: string;
  projectId: string | null;
  mapId: string | null;
  code: number;
  raisedAt: string;
}

/**
 * The alert tracker of `node` raised or cleared faults of one device (or gateway, addr ''): the other nodes'
 * trackers keep what is open in step, and the node running the alarm engine feeds it (docs/alarms.md).
 */
export interface FaultsChangedEvent {
  kind: 'faultsChanged';
  node: string;
  gatewayId: string;
  addr: string;
  raised?: RaisedFault;
  cleared?: number[];
}

/** An acknowledge, shelve or unshelve answered by `node`, for the node running the alarm engine to apply. */
export interface AlarmsByHandEvent {
  kind: 'alarmsByHand';
  node: string;
  request: string;
  op: 'ack' | 'shelve' | 'unshelve';
  /** Alarms the caller was checked to see. */
  ids: string[];
  byName: string;
  until?: string;
  reason?: string;
}

/** The alarm engine's answer to `alarmsByHand`: how many alarms it changed. */
export interface AlarmsByHandDoneEvent {
  kind: 'alarmsByHandDone';
  request: string;
  count: number;
}

/** A project's alarm settings changed: the node running the alarm engine reads them again. */
export interface AlarmSettingsChangedEvent {
  kind: 'alarmSettingsChanged';
  projectId: string;
}

export type RealtimeEvent =
  | MessageEvent
  | SessionsEndedEvent
  | PlacementsChangedEvent
  | JobsHandedBackEvent
  | FaultsChangedEvent
  | AlarmsByHandEvent
  | AlarmsByHandDoneEvent
  | AlarmSettingsChangedEvent;

/**
 * How events reach the STOMP connections. This process's bus delivers in process; a cross-node bus
 * (Redis pub/sub, PostgreSQL LISTEN/NOTIFY) implements the same three calls and delivers every event to
 * every node's subscriber, this node's included.
 */
export interface RealtimeBus {
  publish(event: RealtimeEvent): void;
  subscribe(handler: (event: RealtimeEvent) => void): () => void;
  close(): Promise<void>;
}

/** The single-node bus: events go straight to this process's connections. */
export function createLocalBus(): RealtimeBus {
  const handlers = new Set<(event: RealtimeEvent) => void>();
  return {
    publish(event) {
      for (const handler of handlers) handler(event);
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      handlers.clear();
    },
  };
}
