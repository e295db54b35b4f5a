import { createServer, type AddressInfo } from 'node:net';
import { downTopic, encodeUp, upTopic, type DecodedUp } from '@lumigrid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimGateway } from '@lumigrid/gateway-sim';
import { mayPublish, maySubscribe, mayUseClientId } from './acl.ts';
import { BrokerPortInUseError, startEmbeddedBroker } from './broker.ts';
import { createGatewayVerifier, createMemoryCredentialStore, randomServerCredential } from './credentials.ts';
import { memoryLogger, rawClient, startRig, type LinkRig } from '../test/gateway-link.fixtures.ts';
import { poll } from '../test/poll.ts';

const A = 'A4C138000001';
const B = 'A4C138000002';

describe('ACL rules', () => {
  const a = { kind: 'gateway', mac: A } as const;
  it.each([
    [`lg/v1/${A}/up/report`, true],
    [`lg/v1/${A}/up/state`, true],
    [`lg/v1/${B}/up/report`, false],
    [`lg/v1/${A}/down/cmd`, false],
    [`lg/v1/${A}/up/report/x`, false],
    ['lg/v1/+/up/report', false],
    ['$SYS/broker', false],
    ['anything', false],
  ])('gateway A publishing to %s: %s', (topic, allowed) => expect(mayPublish(a, topic)).toBe(allowed));

  it.each([
    [`lg/v1/${A}/down/#`, true],
    [`lg/v1/${A}/down/cmd`, true],
    [`lg/v1/${A}/down/+`, true],
    [`lg/v1/${A}/up/#`, false],
    [`lg/v1/${B}/down/#`, false],
    ['#', false],
    ['lg/#', false],
    ['lg/v1/+/down/#', false],
    [`$share/x/lg/v1/${A}/down/#`, false],
    [`lg/v1/${A}/down/cmd/#`, false],
  ])('gateway A subscribing to %s: %s', (filter, allowed) => expect(maySubscribe(a, filter)).toBe(allowed));

  it('ties client ids to identities', () => {
    expect(mayUseClientId(a, A)).toBe(true);
    expect(mayUseClientId(a, `${A}-2`)).toBe(true);
    expect(mayUseClientId(a, B)).toBe(false);
    expect(mayUseClientId(a, 'lumigrid-server-1')).toBe(false);
    expect(mayUseClientId({ kind: 'server' }, 'lumigrid-server-1')).toBe(true);
    expect(mayPublish({ kind: 'server' }, `lg/v1/${B}/down/cmd`)).toBe(true);
    expect(mayPublish({ kind: 'server' }, 'elsewhere')).toBe(false);
  });
});

describe('embedded broker: ACL matrix over a real socket', () => {
  let rig: LinkRig;
  const up: DecodedUp[] = [];
  let a: string;
  let b: string;

  beforeAll(async () => {
    rig = await startRig('embedded', { count: 2 });
    rig.link.onUp((m) => void up.push(m));
    [a, b] = rig.fleet.gateways.map((g) => g.mac) as [string, string];
  });
  afterAll(async () => {
    await rig?.close();
  });

  /** Connects as gateway A (its real credentials) with a second client id, as an attacker holding A's password. */
  const asA = () => rawClient(rig.url, { clientId: `${a}-probe`, username: a, password: `pw-${a}`, clean: true });

  it('refuses wrong, unknown and borrowed credentials', async () => {
    const wrong = await rawClient(rig.url, { clientId: a, username: a, password: 'guess' });
    expect(wrong.error?.code).toBe(4);
    const unknown = await rawClient(rig.url, { clientId: 'A4C138FFFFFF', username: 'A4C138FFFFFF', password: 'x' });
    expect(unknown.error?.code).toBe(4);
    const anonymous = await rawClient(rig.url, { clientId: 'anyone' });
    expect(anonymous.error?.code).toBe(4);
    const server = await rawClient(rig.url, { clientId: 'lumigrid-server-x', username: 'lumigrid-server', password: 'guess' });
    expect(server.error?.code).toBe(4);
    // A's password with B's client id would take over B's session: refused.
    const takeover = await rawClient(rig.url, { clientId: b, username: a, password: `pw-${a}` });
    expect(takeover.error?.code).toBe(5);
    expect(rig.link.presence.isOnline(b)).toBe(true);
  });

  it('lets A subscribe only to its own down topics', async () => {
    const { client, error } = await asA();
    expect(error).toBeUndefined();
    const filters = ['#', 'lg/v1/+/up/#', `lg/v1/${b}/down/#`, `lg/v1/${b}/up/#`, `lg/v1/${a}/down/#`];
    const granted: Array<[string, number]> = [];
    for (const filter of filters) {
      // mqtt.js reports a refused filter (SUBACK 0x80) as an error of the call.
      const qos = await client.subscribeAsync(filter, { qos: 1 }).then(
        (g) => g[0]!.qos,
        () => 128,
      );
      granted.push([filter, qos]);
    }
    expect(granted).toEqual([
      ['#', 128],
      ['lg/v1/+/up/#', 128],
      [`lg/v1/${b}/down/#`, 128],
      [`lg/v1/${b}/up/#`, 128],
      [`lg/v1/${a}/down/#`, 1],
    ]);
    // Nothing of B's reaches A: not its retained state, not its commands.
    const seen: string[] = [];
    client.on('message', (topic) => seen.push(topic));
    await rig.link.bus.call(b, 'gateway.identify', {});
    // A command to A, published by the server after B's, reaches A's subscription behind anything of B's.
    await rig.link.bus.call(a, 'gateway.identify', {});
    await poll(() => seen.some((t) => t.includes(a)), "A's own command");
    expect(seen.filter((t) => t.includes(b))).toEqual([]);
    await client.endAsync();
  });

  it('drops what A publishes on B topics or on down topics', async () => {
    const { client } = await asA();
    const before = up.length;
    // Each refused QoS 1 publish costs the connection; reconnect between attempts.
    const attempts: Array<[string, string]> = [
      [upTopic(b, 'state'), encodeUp('state', { state: 'offline', reason: 'shutdown' })],
      [
        upTopic(b, 'report'),
        encodeUp('report', { ts: 1, full: false, devices: [{ addr: '01', kind: 'light-single', online: true, fault: 0 }] }),
      ],
      [downTopic(b, 'cmd'), '{}'],
      [downTopic(a, 'cmd'), '{}'],
    ];
    await client.endAsync();
    const refusals = () => rig.lines.filter((l) => l.msg === 'MQTT publish refused by the ACL').length;
    for (const [topic, payload] of attempts) {
      const probe = await asA();
      const refusedBefore = refusals();
      await probe.client.publishAsync(topic, payload, { qos: 0, retain: true }).catch(() => undefined);
      // The broker has judged this publish (and so forwarded nothing of it) once it logged the refusal.
      await poll(() => refusals() > refusedBefore, `the refusal of ${topic}`);
      await probe.client.endAsync(true);
    }
    expect(up.slice(before).filter((m) => m.mac === b)).toEqual([]);
    expect(rig.link.presence.isOnline(b)).toBe(true);
    expect(rig.lines.some((l) => l.msg === 'MQTT publish refused by the ACL')).toBe(true);
  });

  it('logs and drops malformed and oversized payloads, and keeps working', async () => {
    const { client } = await asA();
    const dropped = rig.link.stats.dropped;
    await client.publishAsync(upTopic(a, 'report'), 'not json', { qos: 1 });
    await client.publishAsync(upTopic(a, 'report'), JSON.stringify({ ts: 1, full: true, devices: [{ addr: 'zz' }] }), { qos: 1 });
    await client.publishAsync(upTopic(a, 'reply'), JSON.stringify({ id: 'nope', ok: true }), { qos: 1 });
    await client.publishAsync(upTopic(a, 'telemetry'), Buffer.from([0xff, 0xfe, 0x00]), { qos: 1 });
    await poll(() => rig.link.stats.dropped - dropped === 4, 'four drops');
    expect(rig.lines.filter((l) => l.msg === 'gateway message dropped').map((l) => l.code)).toEqual(
      expect.arrayContaining(['not_json', 'invalid']),
    );
    // An oversized payload does not even pass the broker; the sender's connection ends.
    void client.publishAsync(upTopic(a, 'event'), Buffer.alloc(300 * 1024, 0x7b), { qos: 1 }).catch(() => undefined);
    await poll(() => rig.lines.some((l) => l.msg === 'MQTT publish refused: payload too large'), 'the size refusal');
    client.end(true);
    expect(rig.link.stats.dropped - dropped).toBe(4);
    // The link and the real gateway A still work.
    expect((await rig.link.bus.send(a, 'gateway.info', {})).state).toBe('succeeded');
  });
});

describe('embedded broker start', () => {
  it('says in one line that the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const attempt = startEmbeddedBroker({
        port,
        host: '127.0.0.1',
        credentials: createMemoryCredentialStore(),
        server: randomServerCredential(),
        logger: memoryLogger().logger,
      });
      await expect(attempt).rejects.toBeInstanceOf(BrokerPortInUseError);
      await expect(attempt).rejects.toThrow(
        `MQTT port ${port} is already in use: set MQTT_PORT to a free port, or MQTT_URL to use an external broker`,
      );
    } finally {
      blocker.close();
    }
  });
});

describe('gateway password checks', () => {
  it('remembers a success until the password changes, and never remembers a failure', async () => {
    const store = createMemoryCredentialStore();
    await store.set(A, 'first');
    let lookups = 0;
    const verify = createGatewayVerifier({ passwordHash: (mac) => (lookups++, store.passwordHash(mac)) });
    expect(await verify(A, 'first')).toBe(true);
    expect(await verify(A, 'first')).toBe(true);
    expect(await verify(A, 'wrong')).toBe(false);
    await store.set(A, 'second');
    expect(await verify(A, 'first')).toBe(false);
    expect(await verify(A, 'second')).toBe(true);
    store.remove(A);
    expect(await verify(A, 'second')).toBe(false);
    expect(await verify(B, 'anything')).toBe(false);
    expect(lookups).toBe(7);
  });

  it('fails, rather than answering "wrong password", when the store cannot be read', async () => {
    const outage = new Error('connection terminated');
    const verify = createGatewayVerifier({ passwordHash: async () => Promise.reject(outage) });
    await expect(verify(A, 'first')).rejects.toBe(outage);
  });
});

describe('revoked credentials', () => {
  it('keeps a restarting gateway out once its password is revoked, without crashing the simulator', async () => {
    const lines: string[] = [];
    const rig = await startRig('embedded', { count: 1, sim: { log: (l) => void lines.push(l) } });
    try {
      const g = rig.fleet.gateways[0]!;
      rig.credentials.remove(g.mac);
      expect((await rig.link.bus.send(g.mac, 'gateway.restart', {})).state).toBe('succeeded');
      await poll(() => lines.some((l) => l.includes('broker refused the connection')), 'the refusal to be logged');
      expect(rig.link.presence.get(g.mac)).toMatchObject({ online: false, reason: 'restart' });
    } finally {
      await rig.close();
    }
  });
});

describe('putting a gateway out', () => {
  it("closes a revoked gateway's connection; the last will marks it offline and it stays out", async () => {
    const rig = await startRig('embedded', { count: 2 });
    try {
      const [g, other] = rig.fleet.gateways as [SimGateway, SimGateway];
      rig.credentials.remove(g.mac);
      expect(rig.link.disconnectGateway(g.mac)).toBe(1);
      await poll(() => rig.link.presence.get(g.mac)?.online === false, 'offline');
      expect(rig.link.presence.get(g.mac)!.reason).toBe('lost');
      // The simulator keeps trying to come back: once the broker has refused one attempt, it is out for good.
      await poll(
        () => rig.lines.some((l) => l.msg === 'gateway refused: wrong or unknown credentials' && l.mac === g.mac),
        'a refused reconnect',
      );
      expect(rig.link.presence.isOnline(g.mac)).toBe(false);
      expect(rig.link.presence.isOnline(other.mac)).toBe(true);
      expect(rig.link.disconnectGateway(g.mac)).toBe(0);
    } finally {
      await rig.close();
    }
  });
});
