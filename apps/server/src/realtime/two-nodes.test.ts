import { randomBytes } from 'node:crypto';
import type { Fleet } from '@lumigrid/gateway-sim';
import {
  NOTICE_TYPE,
  userDestination,
  type GatewayStatusNotice,
  type GatewayUpdateNotice,
  accountEndpoints,
  deviceEndpoints,
  gatewayEndpoints,
  mapDestination,
  type MapTopicMessage,
} from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { MOSQUITTO_URL, runPrefix, testFleet } from '../test/gateway-link.fixtures.ts';
import type { App } from '../http/types.ts';
import { createFirmwareCatalogue } from '../modules/gateways/firmware-catalogue.ts';
import { bind, data, defaultMapId } from '../test/gateways.fixtures.ts';
import { treeFactory } from '../test/projects.fixtures.ts';
import { TestClock, signUpByMail, type Harness, api } from '../test/harness.ts';
import { servicesFor } from '../test/services.ts';
import { adminQuery, nodesDatabase, startNode } from '../test/two-nodes.fixtures.ts';
import { createPgBus, PG_BUS_APPLICATION } from './pg-bus.ts';
import { listenForRealtime, markedFault, markedNotice, stompClient, type StompTestClient } from '../test/realtime.fixtures.ts';
import { poll } from '../test/poll.ts';

const BASE_URL = process.env.DATABASE_URL ?? '';
/** Scale-out needs PostgreSQL and an external broker. */
const SERVICES = servicesFor('two server nodes', { mqtt: true, postgres: true });
const FIRMWARE = { target: 'gateway' as const, version: '3.3.0', url: 'https://firmware.example.com/lg-gw-3.3.0.bin' };

/**
 * ARCHITECTURE.md section 6 on one machine: two server nodes share one PostgreSQL database (REALTIME_BUS=postgres)
 * and the machine's Mosquitto (MQTT_URL, one shared subscription group), and a STOMP client on node B hears
 * what happens on node A; firmware progress lives in the database, so either node follows and concludes it.
 */
describe.skipIf(!SERVICES)('two server nodes on PostgreSQL and Mosquitto', () => {
  let dropDatabase: () => Promise<void> = async () => undefined;
  const group = `lumigrid-two-nodes-${runPrefix()}`;
  const nodes: Array<{ app: App; database: Database; url: string }> = [];
  let fleet: Fleet;
  let token: string;
  let me: string;
  let gwId: string;
  let onB: StompTestClient;
  const statusOnB: GatewayStatusNotice[] = [];
  const noticesOnB: GatewayUpdateNotice[] = [];
  const faultsOnB: unknown[] = [];
  const a = () => nodes[0]!;
  const b = () => nodes[1]!;
  const harnessOf = (node: { app: App; database: Database }): Harness =>
    ({
      app: node.app,
      database: node.database,
      clock: new TestClock(),
      config: undefined,
      close: async () => undefined,
    }) as unknown as Harness;

  beforeAll(async () => {
    const { url, drop } = await nodesDatabase();
    dropDatabase = drop;
    for (let i = 0; i < 2; i++) {
      const { app, database } = await startNode(url, {
        logger: false,
        gatewayLink: { port: 0, sharedGroup: group, firmwareTimeoutMs: 6000, commandTimeoutMs: 3000 },
        firmware: createFirmwareCatalogue([FIRMWARE]),
      });
      nodes.push({ app, database, url: await listenForRealtime(app) });
    }
    token = await signUpByMail(harnessOf(a()), 'two-nodes@example.com');
    me = (await api(a().app, accountEndpoints.profile, {}, { token })).body.data.id as string;
    fleet = testFleet(MOSQUITTO_URL, { count: 1 });
    await a().app.gatewayFleet.provision(fleet.gateways[0]!.mac, `pw-${fleet.gateways[0]!.mac}`);
    expect(await fleet.start()).toEqual([]);
    // Presence is handled by whichever node the shared subscription picks; both read it from the database.
    gwId = (await bind(harnessOf(a()), token, fleet.gateways[0]!.mac, await defaultMapId(harnessOf(a()), token), 'Shared gateway')).id;
    await poll(
      async () => (await data(api(b().app, gatewayEndpoints.detail, { params: { id: gwId } }, { token }))).online === true,
      'online on B',
    );
    onB = await stompClient(b().url, { Authorization: `Bearer ${token}` });
    await onB.subscribe(userDestination('gateway_status', me), (m) => statusOnB.push(JSON.parse(m.body) as GatewayStatusNotice));
    await onB.subscribe(userDestination('global_message_notice', me), (m) => noticesOnB.push(JSON.parse(m.body) as GatewayUpdateNotice));
    await onB.subscribe(userDestination('defective', me), (m) => faultsOnB.push(JSON.parse(m.body)));
  }, 90_000);

  afterAll(async () => {
    await onB?.stop();
    await fleet?.stop();
    for (const g of fleet?.gateways ?? [])
      await a()
        ?.app.gatewayLink?.clearState(g.mac)
        .catch(() => undefined);
    for (const node of nodes) {
      await node.app.close();
      await node.database.close();
    }
    await dropDatabase();
  });

  /** Sentinels published on each node in turn: any copy of an earlier notice from that node arrives before them. */
  async function untilSentinelsFromBothNodes() {
    const heard = (node: string) => noticesOnB.some((n) => (n as { name?: string }).name === `sentinel ${node}`);
    for (const [node, publisher] of [
      ['a', a()],
      ['b', b()],
    ] as const) {
      publisher.app.realtime.publishToUser(me, 'global_message_notice', markedNotice(me, `sentinel ${node}`));
      await poll(() => heard(node), `the sentinel of node ${node}`);
    }
  }

  it('delivers a notice published on node A to a STOMP client on node B, once', async () => {
    a().app.realtime.publishToUser(me, 'defective', { userId: me, id: '1', name: 'Hall light', code: 8 });
    // A second message from node A travels the same bus behind any copy of the first.
    a().app.realtime.publishToUser(me, 'defective', markedFault(me, 'sentinel'));
    await poll(() => faultsOnB.length >= 2, 'the notice and the sentinel on node B');
    expect(faultsOnB).toEqual([{ userId: me, id: '1', name: 'Hall light', code: 8 }, markedFault(me, 'sentinel')]);
  });

  it('carries a sync started on node A to the client on node B', async () => {
    statusOnB.length = 0;
    await data(api(a().app, gatewayEndpoints.sync, { params: { id: gwId } }, { token }));
    await poll(() => statusOnB.some((n) => n.kind === 'sync' && n.syncStatus === 3), 'synced on node B');
  });

  it('follows a firmware update started on node A from the database on both nodes; the result reaches node B once', async () => {
    noticesOnB.length = 0;
    await data(api(a().app, gatewayEndpoints.startUpdate, { params: { id: gwId, target: 'gateway' } }, { token }));
    // Either node may receive the gateway's events; the progress both answer comes from the database.
    await poll(
      async () => (await data(api(b().app, gatewayEndpoints.updateProgress, { params: { id: gwId } }, { token }))).state === 'success',
      'success on B',
      { timeoutMs: 20_000 },
    );
    expect((await data(api(a().app, gatewayEndpoints.updateProgress, { params: { id: gwId } }, { token }))).state).toBe('success');
    await poll(() => noticesOnB.length > 0, 'the type 1 notice on node B', { timeoutMs: 10_000 });
    await untilSentinelsFromBothNodes();
    expect(noticesOnB).toMatchObject([
      { type: NOTICE_TYPE.gatewayUpdate, result: 1, id: gwId },
      { name: 'sentinel a' },
      { name: 'sentinel b' },
    ]);
  });

  it("forgets a device's old map on both nodes when it moves on node A: its reports reach the new map through either node", async () => {
    const sim = fleet.gateways[0]!;
    const mapId = await defaultMapId(harnessOf(a()), token);
    const otherMapId = (await treeFactory(harnessOf(a()), token).map()).id;
    await data(api(a().app, gatewayEndpoints.importDevices, { params: { id: gwId } }, { token }));
    const outmap = await data(api(a().app, gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gwId } }, { token }));
    const light = outmap.find((d) => d.kind === 'light-dimmer')!;
    await data(api(a().app, deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: light.id, x: 0.5, y: 0.5 }] } }, { token }));
    const heard: MapTopicMessage[] = [];
    await onB.subscribe(mapDestination(otherMapId), (m) => heard.push(JSON.parse(m.body) as MapTopicMessage));
    // Reports until each node has read where the gateway's devices are (the broker shares them out). They are
    // another device's, so one still on its way after the move cannot count as the light's. A few a second: each
    // is a fault raised and cleared, written and announced, and a backlog of them on a busy machine would hold
    // the light's reports back.
    const other = outmap.find((d) => d.kind === 'sensor-motion')!;
    await poll(
      () => {
        sim.raiseFault(other.addr, 4);
        sim.clearFault(other.addr);
        return a().app.placements.holds(sim.mac) && b().app.placements.holds(sim.mac);
      },
      'both nodes hold the placements',
      { everyMs: 250 },
    );
    await data(
      api(a().app, deviceEndpoints.moveIn, { body: { mapId: otherMapId, devices: [{ id: light.id, x: 0.2, y: 0.2 }] } }, { token }),
    );
    // Neither node still puts the light on the old map: node A forgot at once, node B when the bus told it (a
    // report arriving meanwhile reads the new placements, so "forgotten" alone may not be seen).
    const old = BigInt(mapId);
    expect(a().app.placements.heldMapOf(sim.mac, light.addr)).not.toBe(old);
    await poll(() => b().app.placements.heldMapOf(sim.mac, light.addr) !== old, 'node B told by the bus');
    const failures = () => heard.filter((m) => 'id' in m && m.id === light.id && m.display === 'failure').length;
    for (let i = 1; i <= 4; i++) {
      sim.raiseFault(light.addr, 5);
      await poll(() => failures() === i, `report ${i} on the new map`);
      sim.clearFault(light.addr);
    }
  });

  it('decides a silent update as timeout once, whichever node sweeps first', async () => {
    noticesOnB.length = 0;
    fleet.gateways[0]!.faults.hangUpdates = true;
    await data(api(b().app, gatewayEndpoints.startUpdate, { params: { id: gwId, target: 'gateway' } }, { token }));
    await poll(() => noticesOnB.length > 0, 'the timeout notice on node B', { timeoutMs: 20_000 });
    for (const node of [a(), b()])
      await poll(
        async () => (await data(api(node.app, gatewayEndpoints.updateProgress, { params: { id: gwId } }, { token }))).state === 'timeout',
        'the timeout recorded for both nodes',
      );
    await untilSentinelsFromBothNodes();
    expect(noticesOnB).toMatchObject([{ type: NOTICE_TYPE.gatewayUpdate, result: 3 }, { name: 'sentinel a' }, { name: 'sentinel b' }]);
    fleet.gateways[0]!.faults.hangUpdates = false;
  });
});

describe.skipIf(!SERVICES)('the PostgreSQL real-time bus', () => {
  it('carries an event larger than a NOTIFY payload in parts, and keeps the order', async () => {
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const channel = `lumigrid_bus_test_${randomBytes(4).toString('hex')}`;
    const sender = await createPgBus({ url: BASE_URL, logger, channel });
    const receiver = await createPgBus({ url: BASE_URL, logger, channel });
    const got: string[] = [];
    receiver.subscribe((e) => e.kind === 'message' && got.push(e.body));
    const big = JSON.stringify({ text: '灯'.repeat(9000) + '😀'.repeat(3000) });
    sender.publish({ kind: 'message', destination: '/topic/x', body: '1' });
    sender.publish({ kind: 'message', destination: '/topic/x', body: big });
    sender.publish({ kind: 'message', destination: '/topic/x', body: '3' });
    await poll(() => got.length === 3, 'three events');
    expect(got).toEqual(['1', big, '3']);
    await sender.close();
    await receiver.close();
  });

  it('reconnects after the database drops its connections and carries events again', async () => {
    const lost: string[] = [];
    const logger = { info: () => undefined, warn: (_o: unknown, msg?: string) => void lost.push(msg ?? ''), error: () => undefined };
    const channel = `lumigrid_bus_test_${randomBytes(4).toString('hex')}`;
    const sender = await createPgBus({ url: BASE_URL, logger, channel, retryMs: 50 });
    const receiver = await createPgBus({ url: BASE_URL, logger, channel, retryMs: 50 });
    const got: string[] = [];
    receiver.subscribe((e) => e.kind === 'message' && got.push(e.body));
    sender.publish({ kind: 'message', destination: '/topic/x', body: 'before' });
    await poll(() => got.length === 1, 'the first event');
    // Every bus connection is cut, as a database restart or failover would.
    await adminQuery(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = '${PG_BUS_APPLICATION}'`);
    // A listener hears nothing while it is away (NOTIFY is not stored): keep publishing until it is back.
    let n = 0;
    const ticker = setInterval(() => sender.publish({ kind: 'message', destination: '/topic/x', body: `after-${++n}` }), 100);
    try {
      await poll(() => got.some((b) => b.startsWith('after-')), 'events after the reconnect', { timeoutMs: 10_000 });
    } finally {
      clearInterval(ticker);
    }
    // Both connections really were cut and came back.
    expect(lost.filter((m) => m === 'real-time bus connection lost').length).toBeGreaterThanOrEqual(2);
    expect(got[0]).toBe('before');
    const after = got.slice(1).map((b) => Number(b.slice('after-'.length)));
    // In order, without duplicates.
    expect(after).toEqual([...after].sort((x, y) => x - y));
    expect(new Set(after).size).toBe(after.length);
    await sender.close();
    await receiver.close();
  });
});
