import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import type { GatewayPresence } from '../../gateway-link/presence.ts';
import type { GatewayStatusChange } from '../../realtime/gateway-status.ts';
import { freshDatabase } from '../../test/database-templates.ts';
import { gatewayInfo } from '../../test/gateway-link.fixtures.ts';
import { DATABASES } from '../../test/harness.ts';
import { createGatewayFleet } from './gateway-fleet.ts';
import { createGatewaysRepo } from './gateways.repo.ts';

const MAC = 'A4C138000101';
const INFO = gatewayInfo(MAC);
const silent = { error: () => undefined };

/**
 * Several server nodes each hear every state of a gateway and store it; the change is told (browsers,
 * webhooks) by one of them. Two fleets on one database stand for two nodes.
 */
describe.each(DATABASES)('gateway presence stored by several nodes on %s', (kind) => {
  let database: Database;
  const nodes: Array<ReturnType<typeof createGatewayFleet>> = [];
  const told: Array<{ node: number; change: GatewayStatusChange }> = [];
  const stored: number[] = [];

  beforeAll(async () => {
    database = await freshDatabase(kind);
    for (const node of [0, 1]) {
      const fleet = createGatewayFleet({ repo: createGatewaysRepo(database.db), logger: silent });
      fleet.onStatusChange((_mac, change) => told.push({ node, change }));
      fleet.onPresenceStored(() => stored.push(node));
      nodes.push(fleet);
    }
    await nodes[0]!.provision(MAC, 'Gateway-Pass-1');
  });
  afterAll(async () => database?.close());

  /** Every node stores the same presence at once, as each hears the same state message. */
  async function everyNodeStores(p: Omit<GatewayPresence, 'mac' | 'since'>) {
    told.length = 0;
    stored.length = 0;
    for (const fleet of nodes) fleet.recordPresence({ mac: MAC, since: Date.now(), ...p });
    await Promise.all(nodes.map((fleet) => fleet.settled()));
    return told.map((t) => t.change);
  }

  it('tells a gateway going online once, though every node stores it', async () => {
    expect(await everyNodeStores({ online: true, info: INFO, reason: undefined })).toEqual([
      { kind: 'presence', online: true, reason: null },
    ]);
    expect(stored.sort()).toEqual([0, 1]);
  });

  it('tells the same online state heard again by nobody', async () => {
    expect(await everyNodeStores({ online: true, info: { ...INFO }, reason: undefined })).toEqual([]);
  });

  it('tells an online gateway whose info changed (another configuration running) once', async () => {
    expect(await everyNodeStores({ online: true, info: { ...INFO, configVersion: INFO.configVersion + 1 }, reason: undefined })).toEqual([
      { kind: 'presence', online: true, reason: null },
    ]);
  });

  it('tells going offline once, and a new reason for being offline once', async () => {
    expect(await everyNodeStores({ online: false, info: undefined, reason: 'restart' })).toEqual([
      { kind: 'presence', online: false, reason: 'restart' },
    ]);
    expect(await everyNodeStores({ online: false, info: undefined, reason: 'lost' })).toEqual([
      { kind: 'presence', online: false, reason: 'lost' },
    ]);
    expect(await everyNodeStores({ online: false, info: undefined, reason: 'lost' })).toEqual([]);
  });
});
