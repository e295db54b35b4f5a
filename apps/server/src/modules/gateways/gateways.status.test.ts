import {
  FIRMWARE_RESULT,
  SYNC_STATUS,
  type GatewayStatusNotice,
  userDestination,
  accountEndpoints,
  gatewayEndpoints,
} from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForRealtime, stompClient, type StompTestClient } from '../../test/realtime.fixtures.ts';
import { SERVICE_DATABASES, signUpByMail, api } from '../../test/harness.ts';
import { bind, data, defaultMapId, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';

/**
 * Gateway changes pushed to /topic/gateway_status/{userId} over a real STOMP client: presence from the
 * simulator's connection, sync status and firmware progress; only to the users of the owning account.
 */
describe.each(SERVICE_DATABASES)('gateway status pushed in real time on %s', (kind) => {
  let rig: GatewayRig;
  let token: string;
  let url: string;
  let me: string;
  let other: string;
  let gwId: string;
  let owner: StompTestClient;
  let stranger: StompTestClient;
  const mine: GatewayStatusNotice[] = [];
  const theirs: GatewayStatusNotice[] = [];
  const h = () => rig.h;
  const sim = () => rig.fleet.gateways[0]!;
  const meOf = async (t: string) => (await api(h().app, accountEndpoints.profile, {}, { token: t })).body.data.id as string;

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 1, firmwareTimeoutMs: 20_000 });
    url = await listenForRealtime(h().app);
    token = await signUpByMail(h(), 'status@example.com');
    const otherToken = await signUpByMail(h(), 'stranger@example.com');
    me = await meOf(token);
    other = await meOf(otherToken);
    gwId = (await bind(h(), token, sim().mac, await defaultMapId(h(), token), 'Live gateway')).id;
    owner = await stompClient(url, { Authorization: `Bearer ${token}` });
    await owner.subscribe(userDestination('gateway_status', me), (m) => mine.push(JSON.parse(m.body) as GatewayStatusNotice));
    stranger = await stompClient(url, { Authorization: `Bearer ${otherToken}` });
    await stranger.subscribe(userDestination('gateway_status', other), (m) => theirs.push(JSON.parse(m.body) as GatewayStatusNotice));
  }, 60_000);
  afterAll(async () => {
    await owner?.stop();
    await stranger?.stop();
    await rig?.close();
  });

  it('refuses a subscription to another user\u2019s gateway status', async () => {
    const spy = await stompClient(url, { Authorization: `Bearer ${token}` });
    await spy.subscribe(userDestination('gateway_status', other), () => undefined);
    expect(spy.errors.length).toBe(1);
    await spy.stop();
  });

  it('pushes offline and online as the gateway drops and returns, after the state is stored', async () => {
    mine.length = 0;
    await sim().goOffline();
    await poll(() => mine.some((n) => n.kind === 'presence' && n.online === false), 'offline notice');
    const offline = mine.find((n) => n.kind === 'presence' && n.online === false)!;
    expect(offline).toMatchObject({ userId: me, id: gwId, mac: sim().mac, name: 'Live gateway', reason: 'lost' });
    // The notice follows the write: a reader who reacts to it sees the new state.
    expect((await data(api(h().app, gatewayEndpoints.detail, { params: { id: gwId } }, { token }))).online).toBe(false);
    await sim().goOnline();
    await poll(() => mine.some((n) => n.kind === 'presence' && n.online === true), 'online notice');
    expect((await data(api(h().app, gatewayEndpoints.detail, { params: { id: gwId } }, { token }))).online).toBe(true);
  });

  it('pushes the sync status: syncing, then synced', async () => {
    mine.length = 0;
    await data(api(h().app, gatewayEndpoints.sync, { params: { id: gwId } }, { token }));
    await poll(() => mine.some((n) => n.kind === 'sync' && n.syncStatus === SYNC_STATUS.synced), 'synced notice');
    const statuses = mine.filter((n) => n.kind === 'sync').map((n) => n.syncStatus);
    expect(statuses[0]).toBe(SYNC_STATUS.syncing);
  });

  it('pushes firmware progress up to the result', async () => {
    mine.length = 0;
    await data(api(h().app, gatewayEndpoints.startUpdate, { params: { id: gwId, target: 'gateway' } }, { token }));
    await poll(() => mine.some((n) => n.kind === 'firmware' && n.result === FIRMWARE_RESULT.success), 'firmware result', {
      timeoutMs: 20_000,
    });
    const progress = mine.filter((n) => n.kind === 'firmware').map((n) => n.progress ?? 0);
    expect(progress.length).toBeGreaterThan(3);
    expect(Math.max(...progress)).toBe(100);
  });

  it('told the other account nothing', () => {
    expect(theirs).toEqual([]);
  });

  it('forgets a finished firmware update when the gateway is unbound, so the next account starts idle', async () => {
    expect((await data(api(h().app, gatewayEndpoints.updateProgress, { params: { id: gwId } }, { token }))).state).toBe('success');
    await data(api(h().app, gatewayEndpoints.unbind, { params: { id: gwId } }, { token }));
    const next = await signUpByMail(h(), 'next-owner@example.com');
    const rebound = await bind(h(), next, sim().mac, await defaultMapId(h(), next));
    expect(rebound.activity).toBe('idle');
    expect(await data(api(h().app, gatewayEndpoints.updateProgress, { params: { id: rebound.id } }, { token: next }))).toMatchObject({
      state: 'idle',
      progress: 0,
    });
  });
});
