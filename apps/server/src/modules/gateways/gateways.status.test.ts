import {
  FIRMWARE_RESULT,
  SYNC_STATUS,
  type GatewayStatusNotice,
  userDestination,
  accountEndpoints,
  gatewayEndpoints,
} from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForRealtime, listenToUserTopic, stompClient, type StompTestClient } from '../../test/realtime.fixtures.ts';
import { SERVICE_DATABASES, signUpByMail, api } from '../../test/harness.ts';
import { bind, data, defaultMapId, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';

/**
 * Gateway changes pushed to /topic/gateway_status/{userId} over a real STOMP client: presence from the
 * simulator's connection, sync status and firmware progress; only to the users of the owning account.
 */
describe.each(SERVICE_DATABASES)('gateway status pushed in real time on %s', (kind) => {
  let url: string;
  let me: string;
  let other: string;
  let gwId: string;
  let owner: StompTestClient;
  let stranger: StompTestClient;
  const mine: GatewayStatusNotice[] = [];
  const theirs: GatewayStatusNotice[] = [];
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 1, firmwareTimeoutMs: 20_000 }, 'status@example.com');
  const meOf = async (t: string) => (await api(h().app, accountEndpoints.profile, {}, { token: t })).body.data.id as string;

  beforeAll(async () => {
    url = await listenForRealtime(h().app);
    const otherToken = await signUpByMail(h(), 'stranger@example.com');
    me = await meOf(token());
    other = await meOf(otherToken);
    gwId = (await bind(h(), token(), sim().mac, await defaultMapId(h(), token()), 'Live gateway')).id;
    owner = await listenToUserTopic(url, token(), 'gateway_status', me, mine);
    stranger = await listenToUserTopic(url, otherToken, 'gateway_status', other, theirs);
  }, 60_000);
  afterAll(async () => {
    await owner?.stop();
    await stranger?.stop();
  });

  it('refuses a subscription to another user\u2019s gateway status', async () => {
    const spy = await stompClient(url, { Authorization: `Bearer ${token()}` });
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
    expect((await data(send(gatewayEndpoints.detail, { params: { id: gwId } }))).online).toBe(false);
    await sim().goOnline();
    await poll(() => mine.some((n) => n.kind === 'presence' && n.online === true), 'online notice');
    expect((await data(send(gatewayEndpoints.detail, { params: { id: gwId } }))).online).toBe(true);
  });

  it('pushes the sync status: syncing, then synced', async () => {
    mine.length = 0;
    await data(send(gatewayEndpoints.sync, { params: { id: gwId } }));
    await poll(() => mine.some((n) => n.kind === 'sync' && n.syncStatus === SYNC_STATUS.synced), 'synced notice');
    const statuses = mine.filter((n) => n.kind === 'sync').map((n) => n.syncStatus);
    expect(statuses[0]).toBe(SYNC_STATUS.syncing);
  });

  it('pushes firmware progress up to the result', async () => {
    mine.length = 0;
    await data(send(gatewayEndpoints.startUpdate, { params: { id: gwId, target: 'gateway' } }));
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
    expect((await data(send(gatewayEndpoints.updateProgress, { params: { id: gwId } }))).state).toBe('success');
    await data(send(gatewayEndpoints.unbind, { params: { id: gwId } }));
    const next = await signUpByMail(h(), 'next-owner@example.com');
    const rebound = await bind(h(), next, sim().mac, await defaultMapId(h(), next));
    expect(rebound.activity).toBe('idle');
    expect(await data(api(h().app, gatewayEndpoints.updateProgress, { params: { id: rebound.id } }, { token: next }))).toMatchObject({
      state: 'idle',
      progress: 0,
    });
  });
});
