import { randomBytes } from 'node:crypto';
import { normaliseMac } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { FirmwareStore } from '../../gateway-link/firmware-tracker.ts';
import type { GatewayPresence } from '../../gateway-link/presence.ts';
import { AppError } from '../../http/app-error.ts';
import { hashPassword } from '../../lib/password.ts';
import type { GatewayStatusChange } from '../../realtime/gateway-status.ts';
import { firmwareOfRow } from './gateways.mappers.ts';
import type { GatewaysRepo } from './gateways.repo.ts';

/**
 * The gateway side of gateway management, with no caller and no tenant: provisioning, the broker's
 * credentials, presence and firmware progress from the link, and who hears about a gateway. Only app.ts,
 * the gateway link, the demo site and the provisioning tools get it; no route can reach it.
 */
export function createGatewayFleet(deps: { repo: GatewaysRepo; logger: Pick<FastifyBaseLogger, 'error'> }) {
  const { repo } = deps;
  const presenceWrites = new Map<string, Promise<void>>();
  const statusListeners = new Set<(mac: string, change: GatewayStatusChange) => void>();
  const presenceListeners = new Set<(mac: string, online: boolean) => void>();

  /** Tells the listeners (the real-time publisher) about a stored change; a listener's failure stays its own. */
  function statusChanged(mac: string, change: GatewayStatusChange) {
    for (const listener of statusListeners) {
      try {
        listener(mac, change);
      } catch (error) {
        deps.logger.error({ err: error, mac }, 'gateway status listener failed');
      }
    }
  }

  return {
    statusChanged,

    /**
     * Provisions a gateway: it gets MQTT credentials (username = its MAC) and enters the pool, or keeps its
     * account when it is re-provisioned. Answers the password, which is stored only as a hash.
     */
    async provision(mac: string, password?: string): Promise<{ mac: string; password: string }> {
      const bare = normaliseMac(mac);
      if (!bare) throw new AppError(100001, 'mac');
      const secret = password ?? randomBytes(24).toString('base64url');
      await repo.provisionAnyTenant({ mac: bare, passwordHash: await hashPassword(secret) });
      return { mac: bare, password: secret };
    },

    /** Firmware updates in the gateways table, so every server node follows and concludes them (gateway-link). */
    firmwareStore: {
      async running(mac) {
        const row = await repo.firmwareRunningAnyTenant({ mac });
        return row ? firmwareOfRow(row) : undefined;
      },
      async begin(p, deadline) {
        await repo.firmwareBeginAnyTenant({
          mac: p.mac,
          update: p.update,
          target: p.target,
          version: p.version,
          startedAt: new Date(p.startedAt),
          deadline: new Date(deadline),
        });
      },
      async advance(mac, update, change) {
        const after = await repo.firmwareAdvanceAnyTenant({ mac, update, ...change });
        const progress = after && firmwareOfRow(after.row);
        return progress ? { ...progress, concluded: after.concluded } : undefined;
      },
      async expire(now) {
        return (await repo.firmwareExpireAnyTenant({ now: new Date(now) })).flatMap((row) => firmwareOfRow(row) ?? []);
      },
    } satisfies FirmwareStore,

    /** The broker's credentials lookup (gateway-link/credentials.ts). */
    credentials: {
      passwordHash: (mac: string) => repo.passwordHashAnyTenant({ mac }),
    },

    /**
     * Persists a presence change from the link: online/offline, last seen, reported info, running version.
     * Writes for one gateway run in the order the changes came, so a quick offline-online never ends offline.
     * The status listeners hear it only when the stored presence changed: with several server nodes each writes
     * the same change, and a person, a browser or an integrator is told once.
     */
    recordPresence(p: GatewayPresence): void {
      const before = presenceWrites.get(p.mac) ?? Promise.resolve();
      const next = before
        .then(() =>
          repo.recordPresenceAnyTenant({
            mac: p.mac,
            online: p.online,
            info: p.online ? p.info : undefined,
            reason: p.reason,
            at: new Date(p.since),
          }),
        )
        .then((changed) => {
          for (const listener of presenceListeners) listener(p.mac, p.online);
          if (changed) statusChanged(p.mac, { kind: 'presence', online: p.online, reason: p.online ? null : (p.reason ?? null) });
        })
        .catch((error: unknown) => deps.logger.error({ err: error, mac: p.mac }, 'could not store gateway presence'))
        .finally(() => {
          if (presenceWrites.get(p.mac) === next) presenceWrites.delete(p.mac);
        });
      presenceWrites.set(p.mac, next);
    },

    /**
     * Observes stored gateway changes: presence (after it is written, so a reader sees it), sync status.
     * buildApp hands them to the real-time publisher (realtime/gateway-status.ts).
     */
    onStatusChange(listener: (mac: string, change: GatewayStatusChange) => void): () => void {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },

    /** Observes every presence this node stored, changed or not (what the node itself keeps of its gateways). */
    onPresenceStored(listener: (mac: string, online: boolean) => void): () => void {
      presenceListeners.add(listener);
      return () => presenceListeners.delete(listener);
    },

    /** Resolves when every presence write has landed (tests, shutdown). */
    async settled(): Promise<void> {
      while (presenceWrites.size > 0) await Promise.all([...presenceWrites.values()]);
    },

    /**
     * Before the link starts: the gateways the table holds online. A restarted server does not know yet whether
     * they are connected; the link calls them unknown until it hears them again (presence.ts expect).
     */
    onlineGateways(): Promise<string[]> {
      return repo.onlineMacsAnyTenant();
    },

    /** Who hears about a gateway (realtime/firmware-notices.ts GatewayAudienceLookup). */
    audienceOf(mac: string) {
      return repo.audienceAnyTenant({ mac });
    },

    /** Whose a gateway is and on which map and project it stands (webhook events), or undefined while unbound. */
    placeOf(mac: string) {
      return repo.placeAnyTenant({ mac });
    },
  };
}

export type GatewayFleet = ReturnType<typeof createGatewayFleet>;
