import type { GatewayStatusNotice } from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayAudienceLookup } from './firmware-notices.ts';
import type { RealtimeHub } from './realtime-hub.ts';

/** What changed about a gateway, without who hears it (the publisher adds the audience). */
export type GatewayStatusChange = Omit<GatewayStatusNotice, 'userId' | 'id' | 'mac' | 'name'>;

/**
 * Sends gateway changes (presence, sync status, firmware progress) to /topic/gateway_status/{userId} of every
 * user of the account the gateway is bound to, and to nobody else: a gateway in the pool has no audience.
 * Through the hub's bus, so a user connected to another server node hears it too.
 */
export function gatewayStatusPublisher(deps: {
  hub: Pick<RealtimeHub, 'publishToUser'>;
  audience: GatewayAudienceLookup;
  logger: Pick<FastifyBaseLogger, 'error'>;
}) {
  return async (mac: string, change: GatewayStatusChange): Promise<void> => {
    let audience;
    try {
      audience = await deps.audience(mac);
    } catch (error) {
      deps.logger.error({ err: error, mac }, 'could not find who to tell about a gateway change');
      return;
    }
    if (!audience) return;
    for (const userId of audience.userIds) {
      const notice: GatewayStatusNotice = { ...change, userId: String(userId), id: audience.gatewayId, mac, name: audience.name || mac };
      deps.hub.publishToUser(userId, 'gateway_status', notice);
    }
  };
}
export type GatewayStatusPublisher = ReturnType<typeof gatewayStatusPublisher>;

/**
 * Connects the sources of gateway changes to the publisher: presence and sync status from the gateways
 * service (after they are stored), firmware progress from the link as it arrives and its outcome (a timeout
 * has no event of its own).
 */
export function wireGatewayStatus(deps: {
  hub: Pick<RealtimeHub, 'publishToUser'>;
  gateways: { onStatusChange(listener: (mac: string, change: GatewayStatusChange) => void): () => void; audienceOf: GatewayAudienceLookup };
  link: {
    onUp(listener: (m: { mac: string; channel: string; message: unknown }) => unknown): () => void;
    onFirmwareResult(listener: (p: { mac: string; stage: string; progress: number; result: number | undefined }) => void): () => void;
  };
  logger: Pick<FastifyBaseLogger, 'error'>;
}): () => void {
  const publish = gatewayStatusPublisher({ hub: deps.hub, audience: (mac) => deps.gateways.audienceOf(mac), logger: deps.logger });
  const offs = [
    deps.gateways.onStatusChange((mac, change) => void publish(mac, change)),
    deps.link.onUp((m) => {
      const event = m.message as { type?: string; stage?: string; progress?: number; result?: number };
      if (m.channel !== 'event' || event.type !== 'firmware') return undefined;
      void publish(m.mac, { kind: 'firmware', stage: event.stage, progress: event.progress, result: event.result ?? null });
      return undefined;
    }),
    deps.link.onFirmwareResult(
      (p) => void publish(p.mac, { kind: 'firmware', stage: p.stage, progress: Math.round(p.progress), result: p.result ?? null }),
    ),
  ];
  return () => offs.forEach((off) => off());
}
