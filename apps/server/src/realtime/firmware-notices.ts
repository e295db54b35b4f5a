import { NOTICE_TYPE, type GatewayUpdateNotice } from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { FirmwareProgress } from '../gateway-link/firmware-tracker.ts';
import type { RealtimeHub } from './realtime-hub.ts';

/** Who hears about a gateway: the users to notify and the gateway's id and name, or undefined when unbound. */
export interface GatewayAudience {
  /** The gateway's id in the cloud. */
  gatewayId: string;
  /** Its name as the users know it. */
  name: string;
  /** The users told about it: the owning account and its sub-accounts allowed on the gateway's project. */
  userIds: Array<bigint | string>;
}

/** Looks a gateway up by MAC for its notices; the gateways module provides it. */
export type GatewayAudienceLookup = (mac: string) => Promise<GatewayAudience | undefined>;

/**
 * Turns firmware-tracker outcomes into the type 1 notice of spec section 4 on each owner's
 * /topic/global_message_notice/{userId}. Hand it to `gatewayLink.onFirmwareResult`.
 */
export function firmwareNoticePublisher(deps: {
  hub: Pick<RealtimeHub, 'publishToUser'>;
  audience: GatewayAudienceLookup;
  logger: FastifyBaseLogger;
}) {
  return async (progress: FirmwareProgress): Promise<void> => {
    if (progress.result === undefined) return;
    let audience: GatewayAudience | undefined;
    try {
      audience = await deps.audience(progress.mac);
    } catch (error) {
      deps.logger.error({ err: error, mac: progress.mac }, 'could not find who to tell about a firmware result');
      return;
    }
    if (!audience) {
      deps.logger.info({ mac: progress.mac, result: progress.result }, 'firmware result for a gateway no account owns; no notice');
      return;
    }
    for (const userId of audience.userIds) {
      const notice: GatewayUpdateNotice = {
        type: NOTICE_TYPE.gatewayUpdate,
        userId: String(userId),
        name: audience.name || progress.mac,
        result: progress.result,
        id: audience.gatewayId,
        mac: progress.mac,
        target: progress.target,
        version: progress.version,
      };
      deps.hub.publishToUser(userId, 'global_message_notice', notice);
    }
  };
}
