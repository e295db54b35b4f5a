import { UplinkStore, type DecodedUp } from '@lumigrid/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { poll, startTestCloud, type TestCloud } from './broker.fixtures.ts';
import { SimGateway, type SimGatewayOptions } from './gateway.ts';

describe('the uplink store', () => {
  it('keeps messages until the broker took them and drops the oldest past its limit, counting them', () => {
    const store = new UplinkStore(2);
    const a = store.add('t', 'a');
    store.add('t', 'b');
    store.add('t', 'c');
    expect(store.dropped).toBe(1);
    expect(store.waiting(1).map((m) => m.payload)).toEqual(['b', 'c']);
    store.delivered(a);
    expect(store.size).toBe(2);
    const [b] = store.waiting(1);
    b!.sentOn = 1;
    // Handed to connection 1 and waiting for its PUBACK; connection 2 sends it again.
    expect(store.waiting(1).map((m) => m.payload)).toEqual(['c']);
    expect(store.waiting(2).map((m) => m.payload)).toEqual(['b', 'c']);
    store.delivered(b!);
    expect(store.waiting(2).map((m) => m.payload)).toEqual(['c']);
    expect(() => new UplinkStore(0)).toThrow();
  });
});

describe('store-and-forward of a simulated gateway', () => {
  let cloud: TestCloud;
  const gateways: SimGateway[] = [];
  let nextMac = 1;

  beforeAll(async () => {
    cloud = await startTestCloud();
  });
  afterEach(() => {
    cloud.acknowledging = true;
  });
  afterAll(async () => {
    for (const g of gateways) await g.stop();
    await cloud.close();
  });

  async function startGateway(options: Partial<SimGatewayOptions> = {}): Promise<SimGateway> {
    const gateway = new SimGateway({
      mac: `A4C1385D${(nextMac++).toString(16).toUpperCase().padStart(4, '0')}`,
      password: 'x',
      url: cloud.url,
      timeFactor: 1000,
      activityIntervalS: 0,
      faultRate: 0,
      ...options,
    });
    gateways.push(gateway);
    await gateway.start();
    return gateway;
  }
  const from = (gateway: SimGateway, since = 0) => cloud.up.slice(since).filter((m) => m.mac === gateway.mac);
  const faults = (messages: DecodedUp[]) =>
    messages.flatMap((m) => (m.channel === 'event' && m.message.type === 'fault' && m.message.raised ? [m.message.addr] : []));

  it('sends nothing but its online state until the cloud answers it, then everything it made, in order', async () => {
    cloud.acknowledging = false;
    const gateway = await startGateway();
    const addrs = [...gateway.devices.keys()].slice(0, 3);
    for (const addr of addrs) gateway.raiseFault(addr, 3);
    // The full report and, per fault, its event and report.
    expect(gateway.uplinkWaiting).toBe(1 + 2 * addrs.length);
    await poll(() => from(gateway).some((m) => m.channel === 'state'), 'the online state');

    const answeredAt = cloud.up.length;
    await cloud.acknowledge(gateway.mac);
    await poll(() => faults(from(gateway)).length === addrs.length, 'the stored faults');
    // Nothing but the state came before the answer.
    expect(
      from(gateway)
        .filter((m) => cloud.up.indexOf(m) < answeredAt)
        .map((m) => m.channel),
    ).toEqual(['state']);
    expect(faults(from(gateway, answeredAt))).toEqual(addrs);
    expect(from(gateway, answeredAt)[0]).toMatchObject({ channel: 'report', message: { full: true } });
    await poll(() => gateway.uplinkWaiting === 0, 'the store emptied by the PUBACKs');
    expect(gateway.uplinkDropped).toBe(0);
  });

  it('keeps what it makes while disconnected and sends it after the answer to its next online state', async () => {
    const gateway = await startGateway();
    await poll(() => gateway.uplinkWaiting === 0, 'the first full report delivered');
    await gateway.goOffline();
    cloud.acknowledging = false;
    const addrs = [...gateway.devices.keys()].slice(0, 2);
    for (const addr of addrs) gateway.raiseFault(addr, 4);
    const reconnectedAt = cloud.up.length;
    await gateway.goOnline();
    await poll(() => from(gateway, reconnectedAt).some((m) => m.channel === 'state' && m.message.state === 'online'), 'online again');
    const answeredAt = cloud.up.length;
    await cloud.acknowledge(gateway.mac);
    await poll(() => faults(from(gateway, answeredAt)).length === addrs.length, 'the faults made while offline');
    expect(faults(from(gateway, reconnectedAt).filter((m) => cloud.up.indexOf(m) < answeredAt))).toEqual([]);
  });

  it('drops the oldest messages past its limit and says how many in its online state', async () => {
    cloud.acknowledging = false;
    const gateway = await startGateway({ uplinkLimit: 3 });
    const addrs = [...gateway.devices.keys()].slice(0, 4);
    for (const addr of addrs) gateway.raiseFault(addr, 5);
    // 1 full report + 4 x (event + report) = 9 messages, room for 3.
    expect(gateway.uplinkDropped).toBe(6);
    expect(gateway.info().uplinkDropped).toBe(6);
    await poll(() => from(gateway).some((m) => m.channel === 'state'), 'the online state');
    await cloud.acknowledge(gateway.mac);
    // The newest three survive, in their order: the third fault's report, the fourth fault's event and report.
    const sent = () => from(gateway).filter((m) => m.channel !== 'state');
    await poll(() => gateway.uplinkWaiting === 0 && sent().length >= 3, 'the stored messages');
    expect(sent().map((m) => m.channel)).toEqual(['report', 'event', 'report']);
    expect(faults(sent())).toEqual([addrs[3]]);
  });
});
