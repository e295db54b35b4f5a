import type { Fleet } from '@lumigrid/gateway-sim';
import { alarmEndpoints, alertEndpoints, type AlarmPage, type AlarmSummary, type AlertPage, type GatewayDevice } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import type { App } from '../../http/types.ts';
import { MOSQUITTO_URL, runPrefix, testFleet } from '../../test/gateway-link.fixtures.ts';
import { buildGatewayWithDevices, data } from '../../test/gateways.fixtures.ts';
import { TestClock, api, signUpByMail, type Harness } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';
import { servicesFor } from '../../test/services.ts';
import { nodesDatabase, startNode } from '../../test/two-nodes.fixtures.ts';

/** Two nodes need PostgreSQL (the shared database and its real-time bus) and a broker both subscribe to. */
const SERVICES = servicesFor('the alarm engine on two server nodes', { mqtt: true, postgres: true });
const SECOND = 1000;
const BATTERY = 6;
const LED = 8;
const ALL_STATES = ['activeUnacked', 'activeAcked', 'clearedUnacked', 'normal'] as const;

/**
 * docs/alarms.md "Where it runs": two server nodes on one PostgreSQL database, one clock. Node A holds the alarm
 * engine's lease; faults reach the engine through either node's ingest, acknowledges through either node's API,
 * and node B rebuilds the engine when A stops, without raising anything twice.
 */
describe.skipIf(!SERVICES)('the alarm engine on two server nodes', () => {
  let dropDatabase: () => Promise<void> = async () => undefined;
  const group = `lumigrid-alarm-nodes-${runPrefix()}`;
  const clock = new TestClock();
  const nodes: Array<{ app: App; database: Database; closed?: boolean }> = [];
  let fleet: Fleet;
  let token: string;
  let mac: string;
  let lights: GatewayDevice[];
  const a = () => nodes[0]!;
  const b = () => nodes[1]!;
  const harnessOf = (node: { app: App; database: Database }): Harness =>
    ({ app: node.app, database: node.database, clock, config: undefined, close: async () => undefined }) as unknown as Harness;

  beforeAll(async () => {
    const { url, drop } = await nodesDatabase();
    dropDatabase = drop;
    for (let i = 0; i < 2; i++) {
      const { app, database } = await startNode(url, {
        clock,
        logger: false,
        gatewayLink: { port: 0, sharedGroup: group, commandTimeoutMs: 3000 },
        alarmTickMs: 0,
        // Lease tries are the test's (alarmOwner.tryNow); the gateway is stopped after its devices are read.
        alarmLease: { tryMs: 3_600_000 },
        offlineGraceMs: 3_600_000,
        jobs: { start: false },
      });
      await app.ready();
      nodes.push({ app, database });
    }
    token = await signUpByMail(harnessOf(a()), 'alarm-nodes@example.com');
    fleet = testFleet(MOSQUITTO_URL, { count: 1 });
    mac = fleet.gateways[0]!.mac;
    await a().app.gatewayFleet.provision(mac, `pw-${mac}`);
    expect(await fleet.start()).toEqual([]);
    const { placed } = await buildGatewayWithDevices(harnessOf(a()), token, { mac, place: (d) => d.kind.startsWith('light') });
    lights = placed;
    // From here on the test is the gateway: its faults go in through the ingest of the node each step names.
    await fleet.stop();
  }, 90_000);

  afterAll(async () => {
    await fleet?.stop();
    await b()
      ?.app.gatewayLink?.clearState(mac)
      .catch(() => undefined);
    for (const node of nodes) {
      if (!node.closed) await node.app.close();
      await node.database.close();
    }
    await dropDatabase();
  });

  const call = <E extends Parameters<typeof api>[1]>(node: { app: App }, endpoint: E, input: Parameters<typeof api<E>>[2]) =>
    data(api(node.app, endpoint, input, { token }));
  const alarmsOf = async (node: { app: App }, light: GatewayDevice, code: number) =>
    ((await call(node, alarmEndpoints.page, { body: { states: [...ALL_STATES] } })) as AlarmPage).list.filter(
      (x) => x.deviceId === light.id && x.code === code,
    );
  const alertOpen = async (node: { app: App }, light: GatewayDevice, code: number) =>
    ((await call(node, alertEndpoints.page, { body: { code, open: true } })) as AlertPage).list.some((x) => x.deviceId === light.id);
  const summaryOf = async (node: { app: App }) => (await call(node, alarmEndpoints.summary, {})) as AlarmSummary;

  /** The gateway says a fault came or went, and the node's ingest takes it; repeated until its fault list shows it. */
  async function fault(node: { app: App }, light: GatewayDevice, code: number, raised: boolean) {
    await poll(
      async () => {
        node.app.alertTracker.onUp({
          mac,
          channel: 'event',
          message: { type: 'fault', ts: clock.now().getTime(), addr: light.addr, code, raised },
        });
        await node.app.alertTracker.settled();
        return (await alertOpen(node, light, code)) === raised;
      },
      `${raised ? 'raised' : 'cleared'} ${code}`,
    );
  }
  /** Time passes and the engine's owner looks at its delays. */
  async function after(owner: { app: App }, ms: number) {
    clock.advance(ms);
    await owner.app.alarmKeeper.tick();
    await owner.app.alarmKeeper.settled();
  }

  it('clears once a fault raised through node A and cleared through node B; an acknowledge answered by B ends it', async () => {
    const light = lights[0]!;
    expect([a().app.alarmOwner.held(), b().app.alarmOwner.held()]).toEqual([true, false]);
    await fault(a(), light, BATTERY, true);
    await a().app.alarmKeeper.settled();
    expect(await alarmsOf(b(), light, BATTERY)).toMatchObject([{ state: 'activeUnacked', raiseCount: 1 }]);

    await fault(b(), light, BATTERY, false);
    // The clear travels to node A over the bus; its off-delay (60 s) runs from when A heard it.
    await poll(async () => {
      await after(a(), 61 * SECOND);
      return (await alarmsOf(b(), light, BATTERY))[0]?.state === 'clearedUnacked';
    }, 'cleared by the engine on A');
    expect(await alarmsOf(a(), light, BATTERY)).toMatchObject([{ state: 'clearedUnacked', raiseCount: 1 }]);
    expect((await summaryOf(a())).unacked.critical).toBe(1);

    const [alarm] = await alarmsOf(b(), light, BATTERY);
    expect(await call(b(), alarmEndpoints.acknowledge, { body: { ids: [alarm!.id] } })).toEqual({ count: 1 });
    // Acknowledged and cleared: the alarm is over, on both nodes' lists and banners.
    expect(await alarmsOf(a(), light, BATTERY)).toMatchObject([{ state: 'normal', ackedBy: expect.any(String) }]);
    const [onA, onB] = [await summaryOf(a()), await summaryOf(b())];
    expect(onA).toEqual(onB);
    expect(onA.unacked.critical).toBe(0);
    // Nothing left in A's engine to bring it back: time passing raises nothing.
    await after(a(), 61 * SECOND);
    expect(await alarmsOf(b(), light, BATTERY)).toHaveLength(1);
  });

  it('hands the engine to node B when A stops: a waiting on-delay and a chattering alarm carry over, nothing raises twice', async () => {
    const light = lights[1]!;
    // A chattering alarm on node A: three raises within the window.
    for (let i = 0; i < 3; i++) {
      await fault(a(), light, BATTERY, true);
      await fault(a(), light, BATTERY, false);
    }
    await a().app.alarmKeeper.settled();
    expect(await alarmsOf(a(), light, BATTERY)).toMatchObject([{ state: 'activeUnacked', chattering: true, raiseCount: 3 }]);
    // An LED fault waiting out its 10 s on-delay when A stops.
    await fault(a(), light, LED, true);
    const ledAt = clock.now().getTime();
    await after(a(), 6 * SECOND);
    expect(await alarmsOf(a(), light, LED)).toEqual([]);

    await a().app.close();
    a().closed = true;
    await b().app.alarmOwner.tryNow();
    expect(b().app.alarmOwner.held()).toBe(true);

    // The on-delay runs on from the fault, not from the take-over: 4 s more raise it, once.
    await after(b(), 4 * SECOND);
    const led = await alarmsOf(b(), light, LED);
    expect(led).toMatchObject([{ state: 'activeUnacked', raiseCount: 1 }]);
    expect(new Date(led[0]!.raisedAt).getTime()).toBe(ledAt + 10 * SECOND);

    // The flapping goes on through node B: the same chattering alarm, not a second one.
    await fault(b(), light, BATTERY, true);
    await b().app.alarmKeeper.settled();
    expect(await alarmsOf(b(), light, BATTERY)).toMatchObject([{ state: 'activeUnacked', chattering: true, raiseCount: 4 }]);
    await after(b(), 20 * SECOND);
    expect(await alarmsOf(b(), light, LED)).toHaveLength(1);
    expect(await alarmsOf(b(), light, BATTERY)).toHaveLength(1);
  });
});
