import { SimGateway, type SimGatewayOptions } from './gateway.ts';

/** MAC number n under a six-digit prefix: prefix A4C138 and n 1 give A4C138000001. */
export function fleetMac(prefix: string, n: number): string {
  const mac = `${prefix.toUpperCase()}${n
    .toString(16)
    .toUpperCase()
    .padStart(12 - prefix.length, '0')}`;
  if (!/^[0-9A-F]{12}$/.test(mac)) throw new Error(`cannot make a MAC from prefix ${prefix} and number ${n}`);
  return mac;
}

export interface FleetOptions extends Omit<SimGatewayOptions, 'mac' | 'password' | 'superGateway'> {
  count: number;
  /** How many of them are super gateways (the last ones); default 0. */
  superGateways?: number;
  macPrefix?: string;
  /** Number of the first gateway (default 1). */
  first?: number;
  /** The password of each gateway: a fixed one, or derived from a secret. */
  password: string | ((mac: string) => string);
}

/** Many simulated gateways in one process. */
export function createFleet(options: FleetOptions) {
  const { count, superGateways = 0, macPrefix = 'A4C138', first = 1, password, ...shared } = options;
  const gateways = Array.from({ length: count }, (_, i) => {
    const mac = fleetMac(macPrefix, first + i);
    return new SimGateway({
      ...shared,
      mac,
      password: typeof password === 'string' ? password : password(mac),
      superGateway: i >= count - superGateways,
    });
  });
  return {
    gateways,
    get(mac: string): SimGateway | undefined {
      return gateways.find((g) => g.mac === mac);
    },
    /** Connects every gateway; a refusal of one does not stop the others. Answers the ones that failed. */
    async start(): Promise<Array<{ mac: string; error: Error }>> {
      const results = await Promise.allSettled(gateways.map((g) => g.start()));
      return results.flatMap((r, i) => (r.status === 'rejected' ? [{ mac: gateways[i]!.mac, error: r.reason as Error }] : []));
    },
    async stop(): Promise<void> {
      await Promise.allSettled(gateways.map((g) => g.stop()));
    },
  };
}
export type Fleet = ReturnType<typeof createFleet>;
