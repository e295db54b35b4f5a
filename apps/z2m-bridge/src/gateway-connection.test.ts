import { poll, startTestCloud, type TestCloud } from '@lumigrid/gateway-sim/broker.fixtures';
import { downTopic, manualSchedule, ONLINE_REPEAT, type GatewayInfo } from '@lumigrid/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewayConnection } from './gateway-connection.ts';

/** Gateways whose first request for down/ack the broker refuses (0x80 in the SUBACK), as NATS refused some under load. */
const refuseAckOnce = new Set<string>();
/** How often each down/ack topic was asked for. */
const askedForAck = new Map<string, number>();

const info = (mac: string): GatewayInfo => ({
  mac,
  ip: '0.0.0.0',
  networkAddress: '0000',
  panId: '0',
  channel: 0,
  versions: { gateway: '2.1.0', zigbee: '', zigbee2: '', zigbee3: '', wisun: '', plc: '' },
  largeGroupNumber: 0,
  superGateway: false,
  configVersion: 0,
});

describe("the bridge's gateway connection and the cloud's answer to its online state", () => {
  let cloud: TestCloud;
  const open: GatewayConnection[] = [];
  const logs: string[] = [];

  beforeAll(async () => {
    cloud = await startTestCloud({
      refuseSubscription: (topic) => {
        if (!topic.endsWith('/down/ack')) return false;
        askedForAck.set(topic, (askedForAck.get(topic) ?? 0) + 1);
        const mac = topic.split('/')[2]!;
        return refuseAckOnce.has(mac) && askedForAck.get(topic) === 1;
      },
    });
  });
  afterEach(async () => {
    cloud.acknowledging = true;
    await Promise.all(open.splice(0).map((gateway) => gateway.close()));
  });
  afterAll(async () => {
    await cloud?.close();
  });

  /** A gateway whose full report (one light) goes through the uplink store after each connect, as the bridge's does. */
  function gateway(mac: string, timers: ReturnType<typeof manualSchedule>) {
    const connection: GatewayConnection = new GatewayConnection({
      mac,
      password: 'x',
      url: cloud.url,
      schedule: timers.schedule,
      onlineRepeat: { random: () => 0 },
      info: () => info(mac),
      onOnline: () =>
        connection.publish('report', {
          ts: Date.now(),
          full: true,
          devices: [{ addr: '00158D0001A2B3C4', kind: 'light-single', online: true, fault: 0 }],
        }),
      onCommand: async (command) => ({ id: command.id, ok: true, result: {} }),
      log: (line) => logs.push(`${mac} ${line}`),
    });
    open.push(connection);
    return connection;
  }
  const statesOf = (mac: string) => cloud.up.filter((m) => m.mac === mac && m.channel === 'state');
  const reportedFull = (mac: string) => cloud.up.some((m) => m.mac === mac && m.channel === 'report' && m.message.full);

  it('asks again for a refused down/ack and says online only once it is granted, so the answer arrives', async () => {
    const mac = '4B0024C2B1A1';
    refuseAckOnce.add(mac);
    const timers = manualSchedule();
    const connecting = gateway(mac, timers).connect();
    // Online before down/ack existed, the cloud's one answer would reach nobody and the report never go.
    await poll(() => timers.pending.length === 1, 'the refused down/ack waiting to be asked for again');
    expect(askedForAck.get(downTopic(mac, 'ack'))).toBe(1);
    expect(statesOf(mac)).toHaveLength(0);

    timers.runNext();
    await connecting;
    expect(askedForAck.get(downTopic(mac, 'ack'))).toBe(2);
    await poll(() => reportedFull(mac), 'the full report, after the answer to the online state');
    expect(await cloud.call(mac, 'gateway.identify', { durationS: 1 })).toMatchObject({ ok: true });
    expect(statesOf(mac)).toHaveLength(1);
    expect(timers.pending).toHaveLength(0);
  });

  it('sends the same online state again while unanswered, with a longer wait each time, until the cloud answers', async () => {
    const mac = '4B0024C2B1A2';
    const timers = manualSchedule();
    // The server node that took the online state died before answering it.
    cloud.acknowledging = false;
    await gateway(mac, timers).connect();
    await poll(() => statesOf(mac).length === 1, 'the online state');
    expect(timers.pending.map((p) => p.ms)).toEqual([ONLINE_REPEAT.initialMs / 2]);

    timers.runNext();
    await poll(() => statesOf(mac).length === 2, 'the online state sent again');
    expect(statesOf(mac)[1]).toEqual(statesOf(mac)[0]);
    expect(timers.pending.map((p) => p.ms)).toEqual([ONLINE_REPEAT.initialMs]);
    expect(reportedFull(mac)).toBe(false);

    // Another node hears the repeat and answers it: the stored report goes and the repeating stops.
    cloud.acknowledging = true;
    timers.runNext();
    await poll(() => reportedFull(mac), 'the stored full report delivered');
    expect(await cloud.call(mac, 'gateway.identify', { durationS: 1 })).toMatchObject({ ok: true });
    expect(timers.pending).toHaveLength(0);
    expect(statesOf(mac)).toHaveLength(3);
  });
});
