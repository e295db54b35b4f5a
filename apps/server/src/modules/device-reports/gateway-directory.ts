import type { RealtimeBus } from '../../realtime/realtime-bus.ts';

/** A gateway as the ingest writes it: its row id and the account it is bound to (null in the pool), as text. */
export interface GatewayRef {
  id: string;
  tenantId: string | null;
}

/** The gateways of some MACs, and the MACs no gateway has. */
export interface ResolvedGateways {
  byMac: Map<string, GatewayRef>;
  unknownMacs: string[];
}

/** Resolves reporting MACs to gateway rows for the ingest's writes. */
export interface GatewayDirectory {
  resolve(macs: readonly string[]): Promise<ResolvedGateways>;
  /** The database refused rows of these MACs (a gateway gone since it was resolved): resolve them again. */
  forgetMacs(macs: readonly string[]): void;
}

type Lookup = (macs: string[]) => Promise<Array<GatewayRef & { mac: string }>>;

async function lookUp(lookup: Lookup, macs: readonly string[]): Promise<ResolvedGateways> {
  const found = await lookup([...macs]);
  const byMac = new Map(found.map((g) => [g.mac, { id: g.id, tenantId: g.tenantId }]));
  return { byMac, unknownMacs: macs.filter((mac) => !byMac.has(mac)) };
}

/** Looks every MAC up again with each write: right without being told of changes (tests, tools). */
export function uncachedGatewayDirectory(lookup: Lookup): GatewayDirectory {
  return {
    resolve: (macs) => lookUp(lookup, macs),
    forgetMacs: () => undefined,
  };
}

/**
 * The reporting gateways' ids and accounts in memory, so a batch of reports goes to the database without a
 * lookup. A gateway is read on its first report and kept until a change to it is told (`forget`, called by the
 * queries that bind, unbind or move it, or place, move or delete its devices) or announced on the real-time
 * bus by another node (`placementsChanged`). A MAC no gateway has is not kept: its next report looks again, so
 * a gateway provisioned meanwhile is found. A lookup that raced a change is used for its batch, not kept.
 */
export function createGatewayDirectory(deps: { lookup: Lookup; bus?: RealtimeBus }) {
  const byMac = new Map<string, GatewayRef>();
  const macOf = new Map<string, string>();
  // Raised by every change; a lookup that saw it change is not kept.
  let generation = 0;

  function forget(gatewayIds: readonly (bigint | string)[]) {
    generation++;
    for (const id of gatewayIds) {
      const mac = macOf.get(String(id));
      if (mac === undefined) continue;
      macOf.delete(String(id));
      byMac.delete(mac);
    }
  }
  deps.bus?.subscribe((event) => {
    if (event.kind === 'placementsChanged') forget(event.gatewayIds);
  });

  return {
    async resolve(macs: readonly string[]): Promise<ResolvedGateways> {
      const known = new Map<string, GatewayRef>();
      const missing: string[] = [];
      for (const mac of macs) {
        const held = byMac.get(mac);
        if (held) known.set(mac, held);
        else missing.push(mac);
      }
      if (missing.length === 0) return { byMac: known, unknownMacs: [] };
      const seen = generation;
      const read = await lookUp(deps.lookup, missing);
      for (const [mac, ref] of read.byMac) {
        known.set(mac, ref);
        if (seen !== generation) continue;
        byMac.set(mac, ref);
        macOf.set(ref.id, mac);
      }
      return { byMac: known, unknownMacs: read.unknownMacs };
    },

    /** Changes to these gateways are committed: they are read again on their next report. */
    forget,

    forgetMacs(macs: readonly string[]) {
      generation++;
      for (const mac of macs) {
        const held = byMac.get(mac);
        if (!held) continue;
        byMac.delete(mac);
        macOf.delete(held.id);
      }
    },

    /** Whether a gateway is held (tests). */
    holds(mac: string): boolean {
      return byMac.has(mac);
    },
  } satisfies GatewayDirectory & Record<string, unknown>;
}
export type CachedGatewayDirectory = ReturnType<typeof createGatewayDirectory>;
