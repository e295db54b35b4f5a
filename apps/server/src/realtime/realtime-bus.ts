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

export type RealtimeEvent = MessageEvent | SessionsEndedEvent | PlacementsChangedEvent | JobsHandedBackEvent;

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
