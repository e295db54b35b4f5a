import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ErrorCode } from '@lumigrid/contract';
import type { CommandName } from '@lumigrid/protocol';
import { BROKER_UNREACHABLE, SERVER_STOPPING, createCommandBus, errorCodeFor, replyMarginMs, type CommandState } from './command-bus.ts';
import { createPresence } from './presence.ts';
import { gatewayInfo, memoryLogger } from '../test/gateway-link.fixtures.ts';

const MAC = 'A4C138000001';
const INFO = gatewayInfo(MAC);

/** A bus over a fake broker: `published` holds what went out, `ack` decides how the broker answers. */
function rig(ack: 'puback' | 'never' | 'refuse' = 'puback') {
  const presence = createPresence();
  presence.update(MAC, { state: 'online', info: INFO });
  const published: Array<{ topic: string; payload: any }> = [];
  let n = 0;
  const link = { connected: true };
  const bus = createCommandBus({
    publish: (topic, payload) => {
      published.push({ topic, payload: JSON.parse(payload) });
      if (ack === 'never') return new Promise(() => undefined);
      return ack === 'refuse' ? Promise.reject(new Error('connection closed')) : Promise.resolve();
    },
    isConnected: () => link.connected,
    isOnline: (mac) => presence.isOnline(mac),
    waitOnline: (mac, ms) => presence.waitOnline(mac, ms),
    logger: memoryLogger().logger,
    newId: () => `c${++n}`,
  });
  const states: CommandState[] = [];
  bus.onState((c) => states.push(c.state));
  return { bus, presence, published, states, link };
}

describe('command bus', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('goes queued -> sent -> succeeded and releases its timer', async () => {
    const { bus, published, states } = rig();
    const pending = bus.send(MAC, 'time.get', {});
    await vi.advanceTimersByTimeAsync(0);
    expect(published[0]).toMatchObject({ topic: `lg/v1/${MAC}/down/cmd`, payload: { id: 'c1', name: 'time.get', params: {} } });
    expect(published[0]!.payload.expiresAt).toBeGreaterThan(published[0]!.payload.ts);
    bus.handleReply(MAC, { id: 'c1', ok: true, result: { time: 5 } });
    expect(await pending).toMatchObject({ state: 'succeeded', result: { time: 5 } });
    expect(states).toEqual(['queued', 'sent', 'succeeded']);
    expect(bus.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('config.apply travels on down/config', async () => {
    const { bus, published } = rig();
    void bus.send(MAC, 'config.apply', { version: 2, config: { groups: [], scenes: [], schedules: [], linkages: [] } });
    await vi.advanceTimersByTimeAsync(0);
    expect(published[0]!.topic).toBe(`lg/v1/${MAC}/down/config`);
    bus.close();
  });

  it('times out without a reply, and ignores the late reply', async () => {
    const { bus, states } = rig();
    const pending = bus.send(MAC, 'gateway.info', {}, { timeoutMs: 1000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(bus.pendingCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ state: 'timed_out', errorCode: 100105 });
    bus.handleReply(MAC, { id: 'c1', ok: true, result: INFO });
    expect(states).toEqual(['queued', 'sent', 'timed_out']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('expires a command the broker never takes, or refuses', async () => {
    const never = rig('never');
    const a = never.bus.send(MAC, 'gateway.identify', {}, { timeoutMs: 500 });
    await vi.advanceTimersByTimeAsync(500);
    expect(await a).toMatchObject({ state: 'expired', error: { code: 'not_sent' }, errorCode: 100101 });
    const refused = rig('refuse');
    expect(await refused.bus.send(MAC, 'gateway.identify', {})).toMatchObject({ state: 'expired', error: { code: 'not_sent' } });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('expires at once for an offline gateway, or after its time to live', async () => {
    const { bus, presence, published } = rig();
    presence.update(MAC, { state: 'offline', reason: 'lost' });
    expect(await bus.send(MAC, 'gateway.info', {})).toMatchObject({ state: 'expired', error: { code: 'offline' }, errorCode: 100101 });
    expect(await bus.send('A4C1380000FF', 'gateway.info', {})).toMatchObject({ state: 'expired' });
    const waiting = bus.send(MAC, 'gateway.info', {}, { ttlMs: 2000 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(await waiting).toMatchObject({ state: 'expired' });
    expect(published).toEqual([]);
    expect(presence.waiterCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends a waiting command when the gateway comes back within its time to live', async () => {
    const { bus, presence, published } = rig();
    presence.update(MAC, { state: 'offline', reason: 'restart' });
    const waiting = bus.send(MAC, 'time.get', {}, { ttlMs: 60_000 });
    await vi.advanceTimersByTimeAsync(1000);
    presence.update(MAC, { state: 'online', info: INFO });
    await vi.advanceTimersByTimeAsync(0);
    expect(published).toHaveLength(1);
    bus.handleReply(MAC, { id: 'c1', ok: true, result: { time: 1 } });
    expect((await waiting).state).toBe('succeeded');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets the gateway run a command only while its reply can still come back in time', async () => {
    const { bus, published } = rig();
    const pending = bus.send(MAC, 'gateway.identify', {}, { timeoutMs: 10_000 });
    await vi.advanceTimersByTimeAsync(0);
    const { ts, expiresAt } = published[0]!.payload as { ts: number; expiresAt: number };
    expect(expiresAt - ts).toBe(10_000 - replyMarginMs(10_000));
    expect(replyMarginMs(10_000)).toBe(2000);
    // A short timeout keeps most of itself for the gateway.
    expect(replyMarginMs(1000)).toBe(200);
    bus.handleReply(MAC, { id: 'c1', ok: true, result: {} });
    expect((await pending).state).toBe('succeeded');
  });

  it('dates a command that waited for its gateway from when it goes out, not from when it was asked for', async () => {
    const { bus, presence, published } = rig();
    presence.update(MAC, { state: 'offline', reason: 'restart' });
    const asked = Date.now();
    const waiting = bus.send(MAC, 'time.get', {}, { ttlMs: 60_000 });
    await vi.advanceTimersByTimeAsync(30_000);
    presence.update(MAC, { state: 'online', info: INFO });
    await vi.advanceTimersByTimeAsync(0);
    const { ts, expiresAt } = published[0]!.payload as { ts: number; expiresAt: number };
    expect(ts).toBe(asked + 30_000);
    // The bus waits 10 s for the reply from here; the gateway may start it only in the first 8.
    expect(expiresAt).toBe(ts + 8000);
    bus.handleReply(MAC, { id: 'c1', ok: true, result: { time: 1 } });
    expect((await waiting).state).toBe('succeeded');
  });

  it('takes a gateway\'s "expired" as expired: it did not run, and the person hears to check the network', async () => {
    const { bus } = rig();
    const pending = bus.send(MAC, 'gateway.identify', {});
    await vi.advanceTimersByTimeAsync(0);
    bus.handleReply(MAC, { id: 'c1', ok: false, error: { code: 'expired', message: 'received after it expired' } });
    expect(await pending).toMatchObject({
      state: 'expired',
      error: { code: 'expired' },
      errorCode: errorCodeFor('gateway.identify', 'expired'),
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails commands at once when the broker is lost, except those waiting for their gateway', async () => {
    const { bus, presence, published, link } = rig();
    const OTHER = 'A4C1380000FF';
    const sent = bus.send(MAC, 'gateway.info', {}, { timeoutMs: 20_000 });
    const waiting = bus.send(OTHER, 'time.get', {}, { ttlMs: 60_000 });
    await vi.advanceTimersByTimeAsync(0);
    const unacknowledged = rig('never');
    const queued = unacknowledged.bus.send(MAC, 'gateway.identify', {}, { timeoutMs: 20_000 });
    await vi.advanceTimersByTimeAsync(0);

    link.connected = false;
    presence.markAllUnknown();
    bus.brokerLost();
    unacknowledged.link.connected = false;
    unacknowledged.bus.brokerLost();
    expect(await sent).toMatchObject({ state: 'failed', error: { code: 'broker_unreachable' }, errorCode: BROKER_UNREACHABLE });
    expect(await queued).toMatchObject({ state: 'expired', error: { code: 'broker_unreachable' }, errorCode: BROKER_UNREACHABLE });
    // A new command fails at once, unsent; one that may wait for its gateway waits.
    expect(await bus.send(MAC, 'gateway.info', {})).toMatchObject({ state: 'expired', errorCode: BROKER_UNREACHABLE });
    expect(published).toHaveLength(1);
    expect(bus.pendingCount()).toBe(1);

    link.connected = true;
    presence.update(OTHER, { state: 'online', info: gatewayInfo(OTHER) });
    await vi.advanceTimersByTimeAsync(0);
    expect(published.map((p) => p.topic)).toEqual([`lg/v1/${MAC}/down/cmd`, `lg/v1/${OTHER}/down/cmd`]);
    bus.handleReply(OTHER, { id: 'c2', ok: true, result: { time: 1 } });
    expect((await waiting).state).toBe('succeeded');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails on an error reply, a malformed result, and ignores replies from another gateway', async () => {
    const { bus } = rig();
    const a = bus.send(MAC, 'params.set', { params: { reportIntervalS: 60 } });
    const b = bus.send(MAC, 'gateway.info', {});
    await vi.advanceTimersByTimeAsync(0);
    bus.handleReply('A4C1380000FF', { id: 'c1', ok: true, result: { params: {} } });
    expect(bus.pendingCount()).toBe(2);
    bus.handleReply(MAC, { id: 'c1', ok: false, error: { code: 'bad_request', message: 'no' } });
    bus.handleReply(MAC, { id: 'c2', ok: true, result: { mac: 'nonsense' } });
    expect(await a).toMatchObject({ state: 'failed', error: { code: 'bad_request', message: 'no' }, errorCode: 100106 });
    expect(await b).toMatchObject({ state: 'failed', error: { code: 'bad_reply' }, errorCode: 100108 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('settles everything on close and leaks nothing under load', async () => {
    const { bus } = rig();
    const all = Array.from({ length: 1000 }, (_, i) =>
      bus.send(MAC, 'device.control', { addr: '0001', action: { on: i % 2 === 0 } }, { timeoutMs: 100 + (i % 50) }),
    );
    await vi.advanceTimersByTimeAsync(10);
    for (let i = 1; i <= 300; i++) bus.handleReply(MAC, { id: `c${i}`, ok: true, result: {} });
    await vi.advanceTimersByTimeAsync(100);
    const late = bus.send(MAC, 'time.get', {});
    bus.close();
    const outcomes = await Promise.all([...all, late]);
    expect(outcomes.filter((o) => o.state === 'succeeded')).toHaveLength(300);
    expect(outcomes.every((o) => ['succeeded', 'timed_out', 'expired', 'failed'].includes(o.state))).toBe(true);
    // Those the close ended (sent ones failed: the gateway may have carried them out) say the server is stopping.
    const ended = outcomes.filter((o) => o.state === 'failed' || o.state === 'expired');
    expect(ended.length).toBeGreaterThan(0);
    expect(ended.every((o) => o.state !== 'succeeded' && o.errorCode === SERVER_STOPPING)).toBe(true);
    expect(bus.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(await bus.send(MAC, 'time.get', {})).toMatchObject({
      state: 'expired',
      error: { code: 'shutdown' },
      errorCode: SERVER_STOPPING,
    });
  });

  // A device's own parameters are set and read like the gateway's, by the purpose the protocol gives each command.
  it.each<[CommandName, 'failed' | 'timed_out' | 'expired', ErrorCode]>([
    ['firmware.update', 'timed_out', 100103],
    ['firmware.update', 'failed', 100102],
    ['params.set', 'timed_out', 100104],
    ['devices.list', 'timed_out', 100105],
    ['config.apply', 'failed', 100107],
    ['config.apply', 'timed_out', 100109],
    ['gateway.restart', 'timed_out', 100101],
    ['time.get', 'expired', 100101],
    ['device.params.set', 'timed_out', 100104],
    ['device.params.set', 'failed', 100106],
    ['device.params.get', 'timed_out', 100105],
    ['device.remove', 'timed_out', 100104],
  ])('maps %s %s to the localised code %i of spec section 8', (name, state, code) => {
    expect(errorCodeFor(name, state)).toBe(code);
  });
});

describe('command bus input', () => {
  it('throws on params outside the protocol before the command exists', async () => {
    const { bus, states, published } = rig();
    await expect(bus.send(MAC, 'devices.permitJoin', { durationS: 1000 })).rejects.toThrow(/durationS|maximum|<=/);
    expect(states).toEqual([]);
    expect(published).toEqual([]);
    expect(bus.pendingCount()).toBe(0);
  });
});
