import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFleet, type Fleet, type SimGateway } from '@lumigrid/gateway-sim';
import { downTopic, type DecodedUp } from '@lumigrid/protocol';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPrefix } from '../test/gateway-link.fixtures.ts';
import { poll } from '../test/poll.ts';
import { servicesFor } from '../test/services.ts';
import { nodesDatabase, startNode, type TestNode } from '../test/two-nodes.fixtures.ts';
import { NATS_SERVER, startNatsCluster, type NatsCluster, type NatsNode } from './nats-cluster.ts';

/** Two server nodes on PostgreSQL, and the NATS server of Debian's package for a three-node cluster. */
const SERVICES = servicesFor('two server nodes on a NATS cluster', { postgres: true, programs: [NATS_SERVER] });

/**
 * The reference deployment's broker (docs/operations.md "A NATS cluster as the broker"): three NATS nodes with
 * JetStream and their MQTT listeners, two server nodes taking the uplink through a NATS queue group (NATS_URL)
 * and sending commands over MQTT, one simulated gateway that knows every node's MQTT listener. The NATS node the
 * gateway is on is then killed outright: everyone moves to the two left, and nothing is handled twice.
 */
describe.skipIf(!SERVICES)('two server nodes on a three-node NATS cluster', () => {
  let dir: string;
  let cluster: NatsCluster;
  let dropDatabase: () => Promise<void> = async () => undefined;
  const nodes: TestNode[] = [];
  /** The time stamps of the reports each server node handled: the test gives each report its own. */
  const reportsSeen: number[][] = [];
  let fleet: Fleet;
  let gateway: SimGateway;
  /** What the gateway did and which states the nodes heard, for the message of a wait that timed out. */
  const timeline: string[] = [];
  /** How often the gateway connected to the broker (it says so once subscribed and its state published). */
  let connects = 0;
  const note = (what: string) => timeline.push(`${new Date().toISOString().slice(17, 23)} ${what}`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lumigrid-nats-'));
    cluster = await startNatsCluster({ dir });
    const { url, drop } = await nodesDatabase();
    dropDatabase = drop;
    const group = `lumigrid-nats-${runPrefix()}`;
    for (let i = 0; i < 2; i++) {
      const node = await startNode(
        url,
        { logger: false, gatewayLink: { port: 0, sharedGroup: group, commandTimeoutMs: 5000 } },
        { MQTT_URL: cluster.mqttUrls, NATS_URL: cluster.natsUrls },
      );
      const seen: number[] = [];
      node.app.gatewayLink!.onUp((message: DecodedUp) => {
        if (message.channel === 'report') seen.push(message.message.ts);
        if (message.channel === 'state') note(`server node ${i + 1} heard ${message.message.state}`);
      });
      nodes.push(node);
      reportsSeen.push(seen);
    }
    fleet = createFleet({
      url: cluster.mqttUrls,
      count: 1,
      macPrefix: runPrefix(),
      // The cluster's NATS checks no gateway password (docs/decisions.md).
      password: 'unchecked',
      timeFactor: 1,
      radio: { unicastPerSecond: 0, groupPerSecond: 0 },
      activityIntervalS: 0,
      // A lost broker node is tried again soon: the test waits for the move, not for back-off.
      reconnect: { initialMs: 200, maxMs: 1000 },
      log: (line) => note(line),
    });
    expect(await fleet.start()).toEqual([]);
    gateway = fleet.gateways[0]!;
    gateway.on('online', () => {
      connects++;
      note('gateway connected');
    });
    await untilOnlineOnBothNodes();
  }, 60_000);

  afterAll(async () => {
    await fleet?.stop();
    for (const node of nodes) {
      await node.app.close();
      await node.database.close();
    }
    await dropDatabase();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function untilOnlineOnBothNodes(timeoutMs?: number) {
    await poll(() => nodes.every((n) => n.app.gatewayLink!.presence.isOnline(gateway.mac) === true), 'the gateway online on both nodes', {
      timeoutMs,
    }).catch((error: Error) => {
      const state = nodes.map((n) => ({ link: n.app.gatewayLink!.connected, online: n.app.gatewayLink!.presence.isOnline(gateway.mac) }));
      throw new Error(`${error.message}: ${JSON.stringify({ nodes: state, gateway: gateway.online, timeline })}`);
    });
  }

  /** The NATS node that holds the gateway's MQTT connection, from the nodes' monitoring. */
  async function nodeOfGateway(): Promise<NatsNode | undefined> {
    for (const node of cluster.nodes) {
      const answer = await fetch(`http://127.0.0.1:${node.ports.http}/connz?mqtt_client=${gateway.mac}`).catch(() => undefined);
      const connz = (await answer?.json()) as { num_connections?: number } | undefined;
      if ((connz?.num_connections ?? 0) > 0) return node;
    }
    return undefined;
  }

  /**
   * Sends `count` reports, each stamped with a time of its own on the gateway's clock (a minute apart, in a year
   * no other report of the gateway has), waits until each was handled, and answers how many each node handled.
   * A report that reached both nodes would be counted twice: both nodes read at the same pace, so by the time
   * every report was handled somewhere, second copies would be there too.
   */
  async function reportsHandledOnce(year: number, count: number): Promise<number[]> {
    const stamps = Array.from({ length: count }, (_, i) => Date.UTC(year, 0, 1) + i * 60_000);
    for (const stamp of stamps) {
      gateway.clock.set(stamp);
      gateway.reportAll();
    }
    // Back to the present, so whatever the gateway reports later is not taken for one of these.
    gateway.clock.set(Date.now());
    // The simulated clock runs on from each stamp, for the moment reportAll takes.
    const ofStamp = (ts: number) => stamps.findIndex((stamp) => ts >= stamp && ts < stamp + 50);
    const counts = () => stamps.map((_, i) => reportsSeen.flat().filter((ts) => ofStamp(ts) === i).length);
    await poll(() => counts().every((n) => n > 0), `each of ${count} reports handled`).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(counts())}`);
    });
    expect(counts()).toEqual(stamps.map(() => 1));
    return reportsSeen.map((seen) => seen.filter((ts) => ofStamp(ts) >= 0).length);
  }

  /**
   * A command from each server node reaches the gateway once, and its reply completes it on the node that sent it.
   * Right after a broker node died, the gateway's QoS 1 subscription waits for its JetStream consumer to get a new
   * leader: a command may time out then (`retryUntilMs`), but none may run twice.
   */
  async function commandsFromBothNodes(retryUntilMs = 0) {
    const sent: string[] = [];
    for (const node of nodes) {
      const deadline = Date.now() + retryUntilMs;
      for (;;) {
        const outcome = await node.app.gatewayLink!.bus.send(gateway.mac, 'gateway.info', {});
        sent.push(outcome.id);
        if (outcome.state === 'succeeded') {
          expect(gateway.executedCount(outcome.id)).toBe(1);
          break;
        }
        if (Date.now() > deadline) expect(outcome).toMatchObject({ state: 'succeeded' });
      }
    }
    // A command that timed out may still have reached the gateway, once.
    expect(sent.filter((id) => gateway.executedCount(id) > 1)).toEqual([]);
  }

  it('hands each report to exactly one server node, spread over both', async () => {
    const perNode = await reportsHandledOnce(2031, 20);
    // The queue group picks a member at random: twenty reports all to one node would be a one-in-500,000 chance.
    expect(perNode.every((n) => n > 0)).toBe(true);
  });

  it('carries a command from either node to the gateway and its reply back', async () => {
    await commandsFromBothNodes();
  });

  it('sends commands at QoS 0, which a NATS node stores nowhere before handing them on', async () => {
    // A QoS 1 publish waits for JetStream, which has no leader for a while after a broker node died (link-client.ts).
    const listener = await mqtt.connectAsync(cluster.nodes[0]!.mqttUrl, { clientId: `${runPrefix()}-listener`, clean: true });
    try {
      const received: number[] = [];
      listener.on('message', (_topic, _payload, packet) => received.push(packet.qos));
      await listener.subscribeAsync(downTopic(gateway.mac, 'cmd'), { qos: 1 });
      await commandsFromBothNodes();
      await poll(() => received.length >= nodes.length, 'the listener to receive both commands');
      expect(received.every((qos) => qos === 0)).toBe(true);
    } finally {
      await listener.endAsync();
    }
  });

  it('moves the gateway and the server nodes to another NATS node when theirs is killed, and both directions flow again', async () => {
    const held = await nodeOfGateway();
    expect(held).toBeDefined();
    note(`${held!.name} killed`);
    const killedAt = Date.now();
    const since = () => ((Date.now() - killedAt) / 1000).toFixed(1);
    held!.process!.kill('SIGKILL');
    const connectsBefore = connects;
    await held!.exited();
    // The gateway and the server links each wait out refused connects while the survivors elect JetStream leaders.
    await poll(() => connects > connectsBefore, 'the gateway connected again', { timeoutMs: 45_000 });
    const reconnected = since();
    await untilOnlineOnBothNodes(45_000);
    const online = since();
    // Until the survivors have new leaders for the MQTT listener's JetStream streams, connects and QoS 1 deliveries
    // wait; the figures below say how long that took.
    const alive = cluster.nodes.filter((n) => n !== held);
    await poll(async () => (await Promise.all(alive.map((n) => n.healthy()))).every(Boolean), 'the two NATS nodes left healthy');
    const settled = since();
    await reportsHandledOnce(2032, 10);
    const reports = since();
    await commandsFromBothNodes(15_000);
    expect(await nodeOfGateway()).not.toBe(held);
    console.log(
      `NATS node killed: the gateway connected again after ${reconnected} s, online on both server nodes after ${online} s, ` +
        `JetStream settled after ${settled} s, reports after ${reports} s, commands from both after ${since()} s`,
    );
  }, 90_000);
});
