import { DEVICE_KINDS, downTopic, encodeCommand, encodeUp, upTopic, type DecodedUp, type ReplyMessage } from '@lumigrid/protocol';
import { SimGateway } from '@lumigrid/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirmwareProgress } from './firmware-tracker.ts';
import { brokersFor } from '../test/services.ts';
import { rawClient, startRig, type LinkRig } from '../test/gateway-link.fixtures.ts';
import { poll } from '../test/poll.ts';

/**
 * Server + real broker socket + simulator. Every scenario runs on the embedded Aedes broker, and on the
 * external broker of TEST_MQTT_URL (Mosquitto in CI) when it is set (that one has no ACL for our users, so the ACL
 * matrix lives in acl.test.ts, on the embedded broker only).
 */
const brokers = brokersFor('the gateway-link suite');

describe.each(brokers)('gateway link on %s', (kind) => {
  let rig: LinkRig;
  const up: DecodedUp[] = [];

  beforeAll(async () => {
    // Updates take 5-6 simulated minutes (0.3 s); the cloud gives up after 3 s, so only a silent one times out.
    rig = await startRig(kind, {
      count: 3,
      superGateways: 1,
      firmwareTimeoutMs: 3000,
      sim: { firmwareMs: { min: 5 * 60_000, max: 6 * 60_000 } },
    });
    rig.link.onUp((m) => void up.push(m));
  });
  afterAll(async () => {
    await rig?.close();
  });

  const gw = (i: number) => rig.fleet.gateways[i]!;
  /** A connection of the test's own with the server's credential, to play a side of the link by hand. */
  const asServer = (name: string) =>
    rawClient(rig.url, {
      clientId: `lumigrid-server-${name}-${kind}`,
      username: rig.serverCredential.username,
      password: rig.serverCredential.password,
    });

  it('sees the simulated gateways online with the fields of spec section 3', () => {
    const presence = rig.link.presence.get(gw(0).mac)!;
    expect(presence.online).toBe(true);
    expect(presence.info).toMatchObject({ mac: gw(0).mac, superGateway: false, configVersion: 0 });
    expect(Object.keys(presence.info!.versions).sort()).toEqual(['gateway', 'plc', 'wisun', 'zigbee', 'zigbee2', 'zigbee3']);
    expect(rig.link.presence.get(gw(2).mac)!.info!.superGateway).toBe(true);
  });

  it('receives a full report with every device family', async () => {
    // The report sent on connect came before this suite listened; ask for another (re_report).
    await rig.link.bus.call(gw(0).mac, 'devices.report', {});
    await poll(() => up.some((m) => m.mac === gw(0).mac && m.channel === 'report' && m.message.full), 'a full report');
    const kinds = new Set(up.flatMap((m) => (m.mac === gw(0).mac && m.channel === 'report' ? m.message.devices.map((d) => d.kind) : [])));
    expect([...kinds].sort()).toEqual(DEVICE_KINDS.filter((k) => k !== 'super-gateway').sort());
  });

  it('round-trips every read and set command', async () => {
    const { bus } = rig.link;
    const mac = gw(0).mac;
    const info = await bus.call(mac, 'gateway.info', {});
    expect(info).toMatchObject({ mac, panId: expect.any(String), channel: 15, largeGroupNumber: 65000 });
    expect(await bus.call(mac, 'gateway.identify', { durationS: 5 })).toEqual({});
    const time = Date.parse('2027-01-01T00:00:00Z');
    expect((await bus.call(mac, 'time.set', { time, timezone: 'Asia/Tokyo' })).time).toBeGreaterThanOrEqual(time);
    const read = await bus.call(mac, 'time.get', {});
    expect(read.time - time).toBeLessThan(60 * 60_000);
    expect(read.timezone).toBe('Asia/Tokyo');
    const params = await bus.call(mac, 'params.set', { params: { longitude: 139.69, latitude: 35.68, reportIntervalS: 30 } });
    expect(params.params).toMatchObject({ longitude: 139.69, latitude: 35.68, reportIntervalS: 30, timezone: 'Asia/Tokyo' });
    expect((await bus.call(mac, 'params.get', {})).params.reportIntervalS).toBe(30);
    const listed = await bus.call(mac, 'devices.list', {});
    expect(listed.devices).toHaveLength(gw(0).devices.size);
    expect((await bus.call(mac, 'devices.report', {})).count).toBe(gw(0).devices.size);
  });

  it('lists the bridges of a super gateway with their device counts', async () => {
    const { bridges } = await rig.link.bus.call(gw(2).mac, 'bridges.list', {});
    expect(bridges.map((b) => b.kind).sort()).toEqual(['bridge', 'bridge-wisun']);
    // DALI devices sit on the bus of the DALI bridge, not on one of the radio bridges.
    const onDaliBus = [...gw(2).devices.values()].filter((d) => d.state.kind === 'dali').length;
    expect(bridges.reduce((n, b) => n + b.deviceCount, 0)).toBe(gw(2).devices.size - 2 - onDaliBus);
  });

  it('imports devices that join while the network is open', async () => {
    const mac = gw(1).mac;
    const before = gw(1).devices.size;
    await rig.link.bus.call(mac, 'devices.permitJoin', { durationS: 60 });
    await poll(() => up.some((m) => m.mac === mac && m.channel === 'event' && m.message.type === 'join'), 'a join event');
    expect((await rig.link.bus.call(mac, 'devices.list', {})).devices).toHaveLength(before + 1);
  });

  it('applies configuration version N, acknowledges it and runs its groups', async () => {
    const mac = gw(0).mac;
    const lights = [...gw(0).devices.values()].filter((d) => d.state.kind.startsWith('light-')).map((d) => d.state.addr);
    const outcome = await rig.link.bus.send(mac, 'config.apply', {
      version: 7,
      config: { groups: [{ id: 1, name: 'Hall', devices: lights }], scenes: [], schedules: [], linkages: [] },
    });
    expect(outcome).toMatchObject({ state: 'succeeded', result: { version: 7 } });
    expect(gw(0).configVersion).toBe(7);
    // The online state repeats the version, which is what the sync status compares.
    await poll(() => rig.link.presence.get(mac)?.info?.configVersion === 7, 'configVersion 7 in the state');
    await rig.link.bus.call(mac, 'group.control', { group: 1, action: { on: true, level: 127 } });
    // A single-colour light does not dim: it goes on at full.
    for (const addr of lights) {
      const { state } = gw(0).devices.get(addr)!;
      expect(state).toMatchObject({ on: true, level: state.kind === 'light-single' ? 254 : 127 });
    }
    // A configuration naming a device that never joined is refused, and the version stays.
    const refused = await rig.link.bus.send(mac, 'config.apply', {
      version: 8,
      config: { groups: [{ id: 1, name: 'x', devices: ['FFFF'] }], scenes: [], schedules: [], linkages: [] },
    });
    expect(refused).toMatchObject({ state: 'failed', error: { code: 'not_found' }, errorCode: 100107 });
    expect(gw(0).configVersion).toBe(7);
  });

  it('runs its schedules on its own clock, also while the cloud is away', async () => {
    const g = gw(1);
    const mac = g.mac;
    const light = [...g.devices.values()].find((d) => d.state.kind === 'light-dimmer')!.state.addr;
    await rig.link.bus.call(mac, 'config.apply', {
      version: 3,
      config: {
        groups: [],
        scenes: [{ id: 4, name: 'Night', steps: [{ target: { device: light }, action: { on: true, level: 30 } }] }],
        // 2026-11-23 is a Monday.
        schedules: [{ id: 1, scene: 4, days: [1], at: '19:30' }],
        linkages: [],
      },
    });
    await rig.link.bus.call(mac, 'time.set', { time: Date.parse('2026-11-23T19:29:00Z'), timezone: 'UTC' });
    await g.goOffline();
    // Simulated time runs 1000 times faster: the scene is due in about 60 ms.
    await poll(() => g.sceneLog.some((s) => s.scene === 4), 'the scheduled scene');
    expect(g.devices.get(light)!.state).toMatchObject({ on: true, level: 30 });
    await g.goOnline();
    await poll(() => rig.link.presence.isOnline(mac) === true, 'back online');
  });

  it('keeps to the radio limits of a Zigbee network', async () => {
    const limited = new SimGateway({
      mac: `${gw(0).mac.slice(0, 6)}00ABCD`,
      password: 'radio-pw',
      url: rig.url,
      radio: { unicastPerSecond: 10, groupPerSecond: 1 },
      activityIntervalS: 0,
    });
    await rig.credentials.set(limited.mac, 'radio-pw');
    await limited.start();
    try {
      await poll(() => rig.link.presence.isOnline(limited.mac) === true, 'online');
      const light = [...limited.devices.values()].find((d) => d.state.kind === 'light-dimmer')!.state.addr;
      let started = Date.now();
      const unicasts = await Promise.all(
        Array.from({ length: 11 }, (_, i) => rig.link.bus.send(limited.mac, 'device.control', { addr: light, action: { level: 100 + i } })),
      );
      expect(unicasts.every((o) => o.state === 'succeeded')).toBe(true);
      // 11 frames at 10 a second: the last leaves about 1 s after the first.
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      await rig.link.bus.call(limited.mac, 'config.apply', {
        version: 1,
        config: { groups: [{ id: 1, name: 'All', devices: [light] }], scenes: [], schedules: [], linkages: [] },
      });
      started = Date.now();
      await Promise.all([1, 2, 3].map(() => rig.link.bus.call(limited.mac, 'group.control', { group: 1, action: { on: true } })));
      expect(Date.now() - started).toBeGreaterThanOrEqual(1950);
    } finally {
      await limited.stop();
      if (kind === 'mosquitto') await rig.link.clearState(limited.mac);
    }
  });

  it('runs emergency tests: progress, results, refusals while charging, failures and a manual stop', async () => {
    const g = gw(0);
    const [light, dimmable] = ['emergency', 'emergency-dimmable'].map(
      (k) => [...g.devices.values()].find((d) => d.state.kind === k)!.state.addr,
    ) as [string, string];
    type Emergency = Extract<DecodedUp, { channel: 'event' }>['message'] & { type: 'emergency' };
    const events = (addr: string) =>
      up.flatMap((m) =>
        m.mac === g.mac && m.channel === 'event' && m.message.type === 'emergency' && m.message.addr === addr
          ? [m.message as Emergency]
          : [],
      );
    const resultOf = async (addr: string, from: number) => {
      await poll(
        () =>
          events(addr)
            .slice(from)
            .some((e) => e.result !== undefined || e.state === 26),
        `a result for ${addr}`,
      );
      return events(addr)
        .slice(from)
        .find((e) => e.result !== undefined || e.state === 26)!;
    };

    // A function test of 30 simulated seconds: progress in steps, then pass (result 0, state 27).
    let from = events(light).length;
    expect(await rig.link.bus.call(g.mac, 'emergency.start', { addrs: [light], test: 'function', durationS: 30 })).toEqual({
      started: [light],
      refused: [],
    });
    expect(await resultOf(light, from)).toMatchObject({ test: 'function', state: 27, result: 0, progress: 100 });
    expect(
      events(light)
        .slice(from)
        .map((e) => e.progress),
    ).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);

    // The battery is no longer full: a life test is refused (29) unless allowed while charging.
    expect(await rig.link.bus.call(g.mac, 'emergency.start', { addrs: [light], test: 'life', durationS: 3600 })).toEqual({
      started: [],
      refused: [{ addr: light, state: 29 }],
    });
    from = events(light).length;
    await rig.link.bus.call(g.mac, 'emergency.start', { addrs: [light], test: 'life', durationS: 3600, allowWhileCharging: true });
    const life = await resultOf(light, from);
    expect(life).toMatchObject({ test: 'life', state: 27, result: 2 });
    expect(life.voltageAfter!).toBeLessThan(life.voltageBefore!);

    // A battery fault fails the test; a long life test can be stopped by hand (result 0, state 26).
    g.faults.failEmergency.add(dimmable);
    from = events(dimmable).length;
    await rig.link.bus.call(g.mac, 'emergency.start', { addrs: [dimmable], test: 'function', durationS: 30 });
    expect(await resultOf(dimmable, from)).toMatchObject({ state: 2, result: 2 });
    g.faults.failEmergency.delete(dimmable);
    from = events(dimmable).length;
    await rig.link.bus.call(g.mac, 'emergency.start', { addrs: [dimmable], test: 'life', durationS: 36_000, allowWhileCharging: true });
    expect(await rig.link.bus.call(g.mac, 'emergency.stop', { addrs: [dimmable] })).toEqual({ stopped: [dimmable] });
    expect(await resultOf(dimmable, from)).toMatchObject({ test: 'life', state: 26, result: 0 });

    // Only emergency lights take the command.
    const light1 = [...g.devices.values()].find((d) => d.state.kind === 'light-single')!.state.addr;
    expect(await rig.link.bus.send(g.mac, 'emergency.start', { addrs: [light1], test: 'function', durationS: 30 })).toMatchObject({
      state: 'failed',
      error: { code: 'not_found' },
    });
  });

  it('times out a command the gateway never answers, with the localised code and nothing left waiting', async () => {
    const g = gw(1);
    g.faults.noReply = true;
    try {
      // Timeouts a busy broker takes a command within: one it has not taken in time expires unsent instead.
      const started = Date.now();
      const outcome = await rig.link.bus.send(g.mac, 'gateway.info', {}, { timeoutMs: 2_000 });
      expect(outcome).toMatchObject({ state: 'timed_out', errorCode: 100105 });
      // Its own timeout, not the command's 10 s.
      expect(Date.now() - started).toBeLessThan(8_000);
      const set = await rig.link.bus.send(g.mac, 'params.set', { params: { reportIntervalS: 20 } }, { timeoutMs: 2_000 });
      expect(set).toMatchObject({ state: 'timed_out', errorCode: 100104 });
      await expect(rig.link.bus.call(g.mac, 'time.get', {}, { timeoutMs: 2_000 })).rejects.toMatchObject({ code: 100105 });
    } finally {
      g.faults.noReply = false;
    }
    expect(rig.link.bus.pendingCount()).toBe(0);
  });

  it('executes a repeated command id once and answers it again', async () => {
    const g = gw(0);
    const { client } = await asServer('dup');
    const replies: ReplyMessage[] = [];
    await client.subscribeAsync(upTopic(g.mac, 'reply'), { qos: 1 });
    client.on('message', (_t, p) => {
      const reply = JSON.parse(p.toString()) as ReplyMessage;
      if (reply.id === `dup-${kind}`) replies.push(reply);
    });
    const command = encodeCommand({ id: `dup-${kind}`, name: 'gateway.identify', params: { durationS: 3 }, ts: Date.now() });
    // Back to back: the second copy may arrive while the first runs; it is then not answered separately.
    await client.publishAsync(downTopic(g.mac, 'cmd'), command, { qos: 1 });
    await client.publishAsync(downTopic(g.mac, 'cmd'), command, { qos: 1 });
    await poll(() => replies.length >= 1, 'a reply');
    // Later (a retry after a lost reply): answered again from the gateway's memory, not executed.
    await client.publishAsync(downTopic(g.mac, 'cmd'), command, { qos: 1 });
    await poll(() => replies.length >= 2, 'a second reply');
    expect(g.executedCount(`dup-${kind}`)).toBe(1);
    expect(replies[0]).toEqual(replies.at(-1));
    // A command the gateway does not know is answered, not ignored.
    const unknown: ReplyMessage[] = [];
    client.on('message', (_t, p) => {
      const reply = JSON.parse(p.toString()) as ReplyMessage;
      if (reply.id === `dup-${kind}-x`) unknown.push(reply);
    });
    await client.publishAsync(
      downTopic(g.mac, 'cmd'),
      JSON.stringify({ id: `dup-${kind}-x`, name: 'gateway.selfDestruct', params: {}, ts: Date.now() }),
      { qos: 1 },
    );
    await poll(() => unknown.length === 1, 'the refusal');
    expect(unknown[0]).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    // A command that arrives after its expiresAt (a redelivery after a long outage) is refused, not run.
    const stale = encodeCommand({
      id: `dup-${kind}-old`,
      name: 'gateway.restart',
      params: {},
      ts: Date.now() - 120_000,
      expiresAt: Date.now() - 60_000,
    });
    const staleReplies: ReplyMessage[] = [];
    client.on('message', (_t, p) => {
      const reply = JSON.parse(p.toString()) as ReplyMessage;
      if (reply.id === `dup-${kind}-old`) staleReplies.push(reply);
    });
    await client.publishAsync(downTopic(g.mac, 'cmd'), stale, { qos: 1 });
    await poll(() => staleReplies.length === 1, 'the expiry refusal');
    expect(staleReplies[0]).toMatchObject({ ok: false, error: { code: 'expired' } });
    expect(g.executedCount(`dup-${kind}-old`)).toBe(0);
    expect(rig.link.presence.isOnline(g.mac)).toBe(true);
    await client.endAsync();
  });

  it('marks a gateway offline by its last will and online again when it returns', async () => {
    const g = gw(1);
    await g.goOffline();
    await poll(() => rig.link.presence.get(g.mac)?.online === false, 'offline by last will');
    expect(rig.link.presence.get(g.mac)!.reason).toBe('lost');
    // An offline gateway: the command expires at once, with "check the gateway network connection".
    expect(await rig.link.bus.send(g.mac, 'gateway.info', {})).toMatchObject({ state: 'expired', errorCode: 100101 });
    // With a time to live it waits for the gateway instead.
    const waiting = rig.link.bus.send(g.mac, 'gateway.info', {}, { ttlMs: 5000 });
    await g.goOnline();
    expect((await waiting).state).toBe('succeeded');
    expect(rig.link.presence.waiterCount()).toBe(0);
  });

  it('restarts a gateway: it answers, goes offline and comes back', async () => {
    const g = gw(1);
    const states: Array<string> = [];
    const off = rig.link.presence.onChange((p) => p.mac === g.mac && states.push(p.online ? 'online' : `offline:${p.reason}`));
    expect((await rig.link.bus.send(g.mac, 'gateway.restart', {})).state).toBe('succeeded');
    await poll(() => states.includes('online'), 'back online');
    off();
    expect(states).toEqual(['offline:restart', 'online']);
  });

  it('updates firmware with progress to success (result 1)', async () => {
    const g = gw(0);
    const results: FirmwareProgress[] = [];
    const off = rig.link.onFirmwareResult((p) => void results.push(p));
    const progress: number[] = [];
    const offUp = rig.link.onUp(
      (m) => m.mac === g.mac && m.channel === 'event' && m.message.type === 'firmware' && void progress.push(m.message.progress),
    );
    const outcome = await rig.link.firmware.start(g.mac, {
      target: 'zigbee',
      version: '1.5.0',
      url: 'https://updates.example/zb-1.5.0.bin',
    });
    expect(outcome.state).toBe('succeeded');
    await poll(() => results.length === 1, 'the update result', { timeoutMs: 8000 });
    off();
    offUp();
    expect(results[0]).toMatchObject({ mac: g.mac, result: 1, progress: 100, stage: 'done', version: '1.5.0' });
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.length).toBeGreaterThan(5);
    expect(rig.link.presence.get(g.mac)!.info!.versions.zigbee).toBe('1.5.0');
  });

  it('reports a failed update (result 2) and restarts the gateway', async () => {
    const g = gw(1);
    g.faults.failUpdates = true;
    const results: FirmwareProgress[] = [];
    const off = rig.link.onFirmwareResult((p) => void results.push(p));
    const states: string[] = [];
    const offPresence = rig.link.presence.onChange((p) => p.mac === g.mac && states.push(p.online ? 'online' : `offline:${p.reason}`));
    try {
      expect(
        (await rig.link.firmware.start(g.mac, { target: 'gateway', version: '9.9.9', url: 'https://updates.example/bad.bin' })).state,
      ).toBe('succeeded');
      await poll(() => results.length === 1, 'the update result', { timeoutMs: 8000 });
      expect(results[0]!.result).toBe(2);
      expect(g.versions.gateway).not.toBe('9.9.9');
      await poll(() => states.includes('offline:restart') && states.at(-1) === 'online', 'the restart after the failure', {
        timeoutMs: 5000,
      });
    } finally {
      g.faults.failUpdates = false;
      off();
      offPresence();
    }
  });

  it('decides timeout (result 3) when an update goes silent', async () => {
    const g = gw(2);
    g.faults.hangUpdates = true;
    const results: FirmwareProgress[] = [];
    const off = rig.link.onFirmwareResult((p) => void results.push(p));
    try {
      expect(
        (await rig.link.firmware.start(g.mac, { target: 'wisun', version: '2.2.0', url: 'https://updates.example/ws.bin' })).state,
      ).toBe('succeeded');
      await poll(() => results.length === 1, 'the timeout', { timeoutMs: 8000 });
      expect(results[0]).toMatchObject({ result: 3, stage: 'downloading' });
      expect(rig.link.firmware.progress(g.mac)!.result).toBe(3);
    } finally {
      g.faults.hangUpdates = false;
      off();
    }
    expect(rig.link.firmware.activeCount()).toBe(0);
  });

  it('logs and drops malformed and oversized payloads without losing the gateway', async () => {
    const g = gw(0);
    const { client, error } = await rawClient(rig.url, {
      clientId: `${g.mac}-garbage`,
      username: g.mac,
      password: `pw-${g.mac}`,
      clean: true,
    });
    expect(error).toBeUndefined();
    const dropped = rig.link.stats.dropped;
    await client.publishAsync(upTopic(g.mac, 'report'), '{"ts":', { qos: 1 });
    await client.publishAsync(upTopic(g.mac, 'event'), JSON.stringify({ type: 'fault', ts: 1, addr: '01', code: 99, raised: true }), {
      qos: 1,
    });
    void client.publishAsync(upTopic(g.mac, 'telemetry'), Buffer.alloc(300 * 1024, 0x20), { qos: 1 }).catch(() => undefined);
    // Mosquitto passes the big one on and the server's decoder drops it; Aedes refuses it itself.
    await poll(
      () =>
        rig.link.stats.dropped - dropped === 3 ||
        (rig.link.stats.dropped - dropped === 2 && rig.lines.some((l) => l.msg === 'MQTT publish refused: payload too large')),
      'the drops',
    );
    client.end(true);
    expect(rig.lines.filter((l) => l.msg === 'gateway message dropped').length).toBeGreaterThanOrEqual(2);
    expect((await rig.link.bus.send(g.mac, 'gateway.info', {})).state).toBe('succeeded');
  });

  it('answers an online state heard again every time, and changes nothing else for it', async () => {
    const g = gw(0);
    const { client } = await asServer('repeat');
    // Played by the test on the gateway's topic: the simulator ignores answers to states it did not send.
    const online = encodeUp('state', { state: 'online', info: rig.link.presence.get(g.mac)!.info!, ts: Date.now() });
    const ts = (JSON.parse(online) as { ts: number }).ts;
    const answers: number[] = [];
    client.on('message', (_topic, payload) => {
      if ((JSON.parse(payload.toString()) as { state?: number }).state === ts) answers.push(ts);
    });
    await client.subscribeAsync(downTopic(g.mac, 'ack'), { qos: 1 });
    await client.publishAsync(upTopic(g.mac, 'state'), online, { qos: 1, retain: true });
    await poll(() => answers.length === 1, 'the answer to the online state');
    const changes: unknown[] = [];
    const off = rig.link.presence.onChange((p) => p.mac === g.mac && changes.push(p));
    const before = rig.link.presence.get(g.mac);

    // What a gateway does whose answer was lost: the same online state again.
    await client.publishAsync(upTopic(g.mac, 'state'), online, { qos: 1, retain: true });
    await poll(() => answers.length === 2, 'the answer to the repeated online state');
    off();
    expect(changes).toEqual([]);
    expect(rig.link.presence.get(g.mac)).toBe(before);
    await client.endAsync();
  });

  it('leaves no command waiting and no timer running', async () => {
    await poll(() => rig.link.bus.pendingCount() === 0, 'no pending commands');
    expect(rig.link.presence.waiterCount()).toBe(0);
    expect(rig.link.firmware.activeCount()).toBe(0);
  });
});

describe('many gateways in one simulator process', () => {
  it('brings 40 gateways online and answers a command on each', async () => {
    const rig = await startRig('embedded', { count: 40, superGateways: 4 });
    try {
      const outcomes = await Promise.all(rig.fleet.gateways.map((g) => rig.link.bus.send(g.mac, 'gateway.info', {})));
      expect(outcomes.filter((o) => o.state === 'succeeded')).toHaveLength(40);
      expect(rig.link.presence.list().filter((p) => p.online)).toHaveLength(40);
      expect(rig.link.bus.pendingCount()).toBe(0);
    } finally {
      await rig.close();
    }
  }, 60_000);
});
