import type { Gateway } from '@lumigrid/contract';
import { EMPTY_GATEWAY_CONFIG, type CommandName, type CommandParams, type CommandResult, type GatewayConfig } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { SendOptions } from '../../gateway-link/command-bus.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DevicesRepo } from '../devices/devices.repo.ts';
import { denyAccess, seesMap, toId } from '../access/access.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { FirmwareCatalogue } from './firmware-catalogue.ts';
import type { GatewayFleet } from './gateway-fleet.ts';
import { firmwareOfRow, mapGateway } from './gateways.mappers.ts';
import type { GatewayRow, GatewaysRepo } from './gateways.repo.ts';

export type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope'>;

/** What the gateway calls need of the gateway link; absent when the server runs without one (commands answer 100101). */
export type GatewayLinkPort = Pick<GatewayLink, 'bus' | 'firmware' | 'clearState'>;

/** A part of the configuration a sync sends (the group table; later scenes, schedules, linkage), from the domain that owns it. */
export type GatewayConfigSource = (q: { tenantId: bigint; gatewayId: bigint }) => Promise<Partial<GatewayConfig>>;

export interface GatewayServiceDeps {
  repo: GatewaysRepo;
  /** The devices a gateway brings (import, bridges): the devices domain owns their rows. */
  devices: Pick<DevicesRepo, 'ofGateway' | 'bridgesOf' | 'importFromGateway' | 'unbindBridge'>;
  /** Which projects, buildings and maps the caller may touch (the projects domain's check). */
  access: ProjectAccess;
  /** The gateway link; undefined when the server runs without one. */
  link: GatewayLinkPort | undefined;
  firmware: FirmwareCatalogue;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  /** Overrides every command's reply timeout (tests); the protocol's per-command timeouts otherwise. */
  commandTimeoutMs?: number;
  /** The parts of the configuration a gateway should run; each domain that owns a part provides it. */
  configSources?: GatewayConfigSource[];
  /** Tells the link-facing half (and so the real-time publisher) about a sync status the service stored. */
  fleet: Pick<GatewayFleet, 'statusChanged'>;
}

/** What every part of gateway management shares: the caller's gateway, its view, and commands to it. */
export function createGatewayContext(deps: GatewayServiceDeps) {
  const { repo, clock } = deps;
  const sources = deps.configSources ?? [];

  async function requireGateway(auth: Caller, id: string | bigint): Promise<GatewayRow> {
    const row = await repo.find({ tenantId: auth.tenantId, id: typeof id === 'bigint' ? id : toId(id) });
    if (!row || !seesMap(auth, row.mapId)) denyAccess();
    return row;
  }

  function view(row: GatewayRow): Gateway {
    // The row holds the update when the link keeps updates in the database (every node sees it); else this node's memory.
    return mapGateway(row, firmwareOfRow(row) ?? deps.link?.firmware.progress(row.mac));
  }

  return {
    deps,
    repo,
    clock,
    deviceRepo: deps.devices,
    requireMap: deps.access.requireMap,
    statusChanged: deps.fleet.statusChanged,
    requireGateway,
    view,

    async reload(auth: Caller, id: bigint): Promise<Gateway> {
      return view(await requireGateway(auth, id));
    },

    /** Sends a command and answers its result, or throws the localised code (100101 without a link). */
    async command<N extends CommandName>(
      row: GatewayRow,
      name: N,
      params: CommandParams<N>,
      options?: SendOptions,
    ): Promise<CommandResult<N>> {
      if (!deps.link) throw new AppError(100101);
      return deps.link.bus.call(row.mac, name, params, {
        ...(deps.commandTimeoutMs ? { timeoutMs: deps.commandTimeoutMs } : {}),
        ...options,
      });
    },

    /** The whole configuration a gateway should run, assembled from the domains that own its parts. */
    async configFor(q: { tenantId: bigint; gatewayId: bigint }): Promise<GatewayConfig> {
      const parts = await Promise.all(sources.map((source) => source(q)));
      return Object.assign({ ...EMPTY_GATEWAY_CONFIG }, ...parts);
    },
  };
}
export type GatewayContext = ReturnType<typeof createGatewayContext>;
