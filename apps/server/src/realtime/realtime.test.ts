import { eq } from 'drizzle-orm';
import { FIRMWARE_RESULT } from '@lumigrid/protocol';
import { userDestination, type GlobalNotice, accountEndpoints, authEndpoints } from '@lumigrid/contract';
import type { IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/index.ts';
import { ADMIN_PASSWORD, login, signUpByMail, startApp, type Harness, api } from '../test/harness.ts';
import { firmwareNoticePublisher } from './firmware-notices.ts';
import { listenForRealtime, markedFault, markedNotice, rawSocket, stompClient } from '../test/realtime.fixtures.ts';
import { poll } from '../test/poll.ts';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('real-time channel: STOMP 1.2 over SockJS at /ws/endpoint-homa', () => {
  let h: Harness;
  let url: string;
  let token: string;
  let userId: string;
  let otherId: string;

  beforeAll(async () => {
    h = await startApp(
      'pglite',
      {},
      {
        realtime: { heartBeatSendMs: 100, heartBeatReceiveMs: 100, heartBeatGrace: 5, revalidateMs: 200, connectTimeoutMs: 1_500 },
      },
    );
    url = await listenForRealtime(h.app);
    token = await signUpByMail(h, 'rt-owner@example.com');
    userId = (await api(h.app, accountEndpoints.profile, {}, { token })).body.data.id as string;
    const other = await login(h, 'admin', ADMIN_PASSWORD);
    otherId = (await api(h.app, accountEndpoints.profile, {}, { token: other })).body.data.id as string;
  });
  afterAll(async () => h?.close());

  it('accepts CONNECT with a valid token in the Authorization header and negotiates heart-beats', async () => {
    const c = await stompClient(url, bearer(token), { incoming: 200, outgoing: 300 });
    expect(c.errors).toEqual([]);
    expect(c.connected?.headers.version).toBe('1.2');
    // Server sends at max(100 it can, 200 wanted); the client at max(300 it offers, 100 wanted).
    expect(c.connected?.headers['heart-beat']).toBe('200,300');
    expect(c.connected?.headers['user-name']).toBe(userId);
    await c.stop();
  });

  it('accepts the token in a `token` header too', async () => {
    const c = await stompClient(url, { token });
    expect(c.connected).toBeDefined();
    await c.stop();
  });

  it.each([
    ['no token', {}],
    ['a wrong token', bearer('not-a-real-token')],
    ['an Authorization header that is not a bearer token', { Authorization: 'Basic YWRtaW46YWRtaW4=' }],
  ])('refuses CONNECT with %s: ERROR 250004, then close', async (_name, headers) => {
    const c = await stompClient(url, headers);
    expect(c.connected).toBeUndefined();
    expect(c.errors[0]?.headers.code).toBe('250004');
    expect(c.errors[0]?.headers.message).toBe('Please log in again');
    await poll(c.closed, 'close after ERROR');
  });

  it('delivers a message published to the user’s own topic, with the MESSAGE headers of STOMP 1.2', async () => {
    const c = await stompClient(url, bearer(token));
    const got: IMessage[] = [];
    await c.subscribe(userDestination('defective', userId), (m) => got.push(m));
    expect(c.errors).toEqual([]);
    h.app.realtime.publishToUser(userId, 'defective', { userId, id: '42', name: 'Lamp 3', code: 8 });
    // Another user's topic never reaches this client: a message to the own topic published after it arrives
    // alone, on the same ordered connection.
    h.app.realtime.publishToUser(otherId, 'defective', { userId: otherId, id: '43', name: 'Other', code: 2 });
    h.app.realtime.publishToUser(userId, 'defective', markedFault(userId, 'sentinel'));
    await poll(() => got.length >= 2, 'MESSAGE and the sentinel');
    expect(got.map((m) => JSON.parse(m.body))).toEqual([{ userId, id: '42', name: 'Lamp 3', code: 8 }, markedFault(userId, 'sentinel')]);
    const message = got[0]!;
    expect(JSON.parse(message.body)).toEqual({ userId, id: '42', name: 'Lamp 3', code: 8 });
    expect(message.headers.destination).toBe(`/topic/defective/${userId}`);
    expect(message.headers.subscription).toBeTruthy();
    expect(message.headers['message-id']).toBeTruthy();
    expect(message.headers['content-type']).toBe('application/json;charset=utf-8');
    await c.stop();
  });

  it.each([['xhr-streaming'], ['xhr-polling']])('works over the %s fallback of browsers without WebSocket', async (transport) => {
    const c = await stompClient(url, bearer(token), undefined, [transport]);
    expect(c.connected).toBeDefined();
    const got: IMessage[] = [];
    await c.subscribe(userDestination('defective', userId), (m) => got.push(m));
    h.app.realtime.publishToUser(userId, 'defective', { userId, id: '44', name: 'Lamp 5', code: 1 });
    await poll(() => got.length === 1, 'MESSAGE over the fallback');
    await c.stop();
  });

  it('stops delivering after UNSUBSCRIBE', async () => {
    const c = await stompClient(url, bearer(token));
    const got: IMessage[] = [];
    const sub = c.client.subscribe(userDestination('global_message_notice', userId), (m) => got.push(m), { receipt: 'r1' });
    await new Promise<void>((resolve) => c.client.watchForReceipt('r1', () => resolve()));
    expect(h.app.realtime.subscriberCount(userDestination('global_message_notice', userId))).toBe(1);
    sub.unsubscribe({ receipt: 'r2' });
    await new Promise<void>((resolve) => c.client.watchForReceipt('r2', () => resolve()));
    expect(h.app.realtime.subscriberCount(userDestination('global_message_notice', userId))).toBe(0);
    h.app.realtime.publishToUser(userId, 'global_message_notice', markedNotice(userId, 'unwanted'));
    // A subscription still held on the same connection gets a message published after the unwanted one.
    const sentinel: IMessage[] = [];
    await c.subscribe(userDestination('defective', userId), (m) => sentinel.push(m));
    h.app.realtime.publishToUser(userId, 'defective', markedFault(userId, 'sentinel'));
    await poll(() => sentinel.length === 1, 'the sentinel');
    expect(got).toEqual([]);
    await c.stop();
  });

  it.each([
    ['another user’s defective topic', () => userDestination('defective', otherId), '110003'],
    ['another user’s notices', () => userDestination('global_message_notice', otherId), '110003'],
    ['an unknown destination', () => '/topic/everything', '100002'],
    ['a wildcard', () => '/topic/defective/*', '110003'],
  ])('refuses a subscription to %s with ERROR, then closes', async (_name, destination, code) => {
    const c = await stompClient(url, bearer(token));
    await c.subscribe(destination(), () => undefined);
    expect(c.errors[0]?.headers.code).toBe(code);
    await poll(c.closed, 'close after ERROR');
  });

  it('publishes a firmware result as a type 1 notice to the gateway’s users', async () => {
    const c = await stompClient(url, bearer(token));
    const got: GlobalNotice[] = [];
    await c.subscribe(userDestination('global_message_notice', userId), (m) => got.push(JSON.parse(m.body) as GlobalNotice));
    const publish = firmwareNoticePublisher({
      hub: h.app.realtime,
      audience: async (mac) =>
        mac === 'AA:BB:CC:DD:EE:01' ? { gatewayId: '7', name: 'Lobby gateway', userIds: [BigInt(userId)] } : undefined,
      logger: h.app.log,
    });
    const base = { update: 'u1', target: 'gateway' as const, version: '2.1.0', stage: 'done' as const, progress: 100, startedAt: 0 };
    await publish({ ...base, mac: 'AA:BB:CC:DD:EE:01', result: FIRMWARE_RESULT.failure });
    await publish({ ...base, mac: 'AA:BB:CC:DD:EE:99', result: FIRMWARE_RESULT.success });
    // The gateway without users notifies nobody: the next message on the topic follows the first notice.
    h.app.realtime.publishToUser(userId, 'global_message_notice', markedNotice(userId, 'sentinel'));
    await poll(() => got.length >= 2, 'notice and the sentinel');
    expect(got).toEqual([
      { type: 1, userId, name: 'Lobby gateway', result: 2, id: '7', mac: 'AA:BB:CC:DD:EE:01', target: 'gateway', version: '2.1.0' },
      markedNotice(userId, 'sentinel'),
    ]);
    await c.stop();
  });

  it('sends heart-beats at the negotiated interval', async () => {
    const raw = await rawSocket(url);
    raw.send(`CONNECT\naccept-version:1.2\nAuthorization:Bearer ${token}\nheart-beat:0,100\n\n\0`);
    await poll(() => raw.text().startsWith('CONNECTED'), 'CONNECTED');
    expect(raw.text()).toContain('heart-beat:100,0');
    await poll(() => raw.received.filter((m) => m === '\n').length >= 3, 'three heart-beats');
    raw.close();
  });

  it('keeps a client that sends heart-beats and drops one that falls silent', async () => {
    const alive = await stompClient(url, bearer(token), { incoming: 0, outgoing: 100 });
    const silent = await rawSocket(url);
    silent.send(`CONNECT\naccept-version:1.2\nAuthorization:Bearer ${token}\nheart-beat:100,0\n\n\0`);
    await poll(() => silent.text().startsWith('CONNECTED'), 'CONNECTED');
    await poll(silent.closed, 'the silent client dropped');
    expect(silent.text()).toContain('no heart-beat');
    expect(alive.closed()).toBe(false);
    expect(alive.client.connected).toBe(true);
    await alive.stop();
  });

  it('answers DISCONNECT with its RECEIPT and closes', async () => {
    const raw = await rawSocket(url);
    raw.send(`CONNECT\naccept-version:1.2\nAuthorization:Bearer ${token}\n\n\0`);
    await poll(() => raw.text().startsWith('CONNECTED'), 'CONNECTED');
    raw.send('DISCONNECT\nreceipt:77\n\n\0');
    await poll(raw.closed, 'close');
    expect(raw.text()).toContain('RECEIPT\nreceipt-id:77\n\n\0');
  });

  const ERROR_CASES: Array<[string, string[], string]> = [
    ['an unknown command', ['HELLO\n\n\0'], 'unknown command'],
    ['a frame before CONNECT', ['SUBSCRIBE\nid:1\ndestination:/topic/x\n\n\0'], 'send CONNECT first'],
    ['an unsupported version', ['CONNECT\naccept-version:1.0,1.1\n\n\0'], 'unsupported protocol version'],
    ['a header without a colon', ['CONNECT\naccept-version:1.2\nnocolon\n\n\0'], 'a header line without a name'],
    ['a bad heart-beat header', ['CONNECT\naccept-version:1.2\nheart-beat:soon\n\n\0'], 'heart-beat must be two numbers'],
    ['a frame over the size limit', [`CONNECT\naccept-version:1.2\nx:${'a'.repeat(20_000)}\n\n\0`], 'frame larger than'],
    ['an endless frame with no NUL', ['CONNECT\naccept-version:1.2\n\n', 'b'.repeat(20_000)], 'frame larger than'],
    ['a content-length that lies', ['CONNECT\naccept-version:1.2\ncontent-length:2\n\nabcdef\0'], 'longer than its content-length'],
  ];

  it.each(ERROR_CASES)('answers %s with ERROR and closes, and the server lives on', async (_name, chunks, detail) => {
    const raw = await rawSocket(url);
    for (const chunk of chunks) raw.send(chunk);
    await poll(raw.closed, 'close');
    expect(raw.text()).toMatch(/^ERROR\n/);
    expect(raw.text()).toContain(detail);
    // Still serving HTTP and STOMP.
    expect((await api(h.app, accountEndpoints.profile, {}, { token })).body.code).toBe(0);
    const c = await stompClient(url, bearer(token));
    expect(c.connected).toBeDefined();
    await c.stop();
  });

  it('answers bad frames after CONNECT (bad escape, SEND, transactions, duplicate ids) with ERROR', async () => {
    const cases = [
      ['SUBSCRIBE\nid:1\ndestination:/topic/\\x\n\n\0', 'undefined escape sequence'],
      ['SEND\ndestination:/topic/defective/1\n\nhi\0', 'clients may not send'],
      ['BEGIN\ntransaction:t\n\n\0', 'transactions are not supported'],
      [
        `SUBSCRIBE\nid:1\ndestination:/topic/defective/${userId}\n\n\0SUBSCRIBE\nid:1\ndestination:/topic/defective/${userId}\n\n\0`,
        'already in use',
      ],
      ['SUBSCRIBE\nid:1\n\n\0', 'needs id and destination'],
    ];
    for (const [frame, detail] of cases) {
      const raw = await rawSocket(url);
      raw.send(`CONNECT\naccept-version:1.2\nAuthorization:Bearer ${token}\n\n\0`);
      await poll(() => raw.text().startsWith('CONNECTED'), 'CONNECTED');
      raw.send(frame!);
      await poll(raw.closed, `close after ${frame}`);
      expect(raw.text(), frame).toContain('\0ERROR\n');
      expect(raw.text(), frame).toContain(detail);
    }
  });

  it('refuses oversized bodies on the HTTP fallback transports before sockjs buffers them', async () => {
    const res = await fetch(`${url}/000/abcdefgh/xhr_send`, {
      method: 'POST',
      body: 'x'.repeat(200_000),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(413);
    // The API behind the same server is untouched.
    expect((await api(h.app, accountEndpoints.profile, {}, { token })).body.code).toBe(0);
  });

  it('closes a socket that sends an oversized WebSocket message', async () => {
    const raw = await rawSocket(url);
    raw.send('x'.repeat(200_000));
    await poll(raw.closed, 'close');
  });

  it('closes a socket that never sends CONNECT', async () => {
    const raw = await rawSocket(url);
    await poll(raw.closed, 'close without CONNECT');
    expect(raw.text()).toContain('no CONNECT frame in time');
  });

  it('closes the socket when its session signs out, without a forced-logout notice', async () => {
    const own = await login(h, 'rt-owner@example.com', 'Secret-Pass1');
    const c = await stompClient(url, bearer(own));
    const got: IMessage[] = [];
    await c.subscribe(userDestination('global_message_notice', userId), (m) => got.push(m));
    expect((await api(h.app, authEndpoints.logout, {}, { token: own })).body.code).toBe(0);
    await poll(c.closed, 'close after sign-out');
    expect(c.errors[0]?.headers.code).toBe('250004');
    expect(got).toEqual([]);
    // The dead token cannot come back.
    const again = await stompClient(url, bearer(own));
    expect(again.errors[0]?.headers.code).toBe('250004');
  });

  it('tells other sessions of the user (type 0) and closes them when the password changes, keeping the changing one', async () => {
    const mail = 'rt-forced@example.com';
    const first = await signUpByMail(h, mail);
    const second = await login(h, mail, 'Secret-Pass1');
    const id = (await api(h.app, accountEndpoints.profile, {}, { token: first })).body.data.id as string;
    const victim = await stompClient(url, bearer(first));
    const keeper = await stompClient(url, bearer(second));
    const victimGot: GlobalNotice[] = [];
    const keeperGot: GlobalNotice[] = [];
    await victim.subscribe(userDestination('global_message_notice', id), (m) => victimGot.push(JSON.parse(m.body) as GlobalNotice));
    await keeper.subscribe(userDestination('global_message_notice', id), (m) => keeperGot.push(JSON.parse(m.body) as GlobalNotice));

    const changed = await api(
      h.app,
      accountEndpoints.changePassword,
      { body: { oldPassword: 'Secret-Pass1', newPassword: 'Other-Pass2' } },
      { token: second },
    );
    expect(changed.body.code, JSON.stringify(changed.body)).toBe(0);

    await poll(victim.closed, 'victim closed');
    expect(victimGot).toHaveLength(1);
    expect(victimGot[0]).toMatchObject({ type: 0, userId: id, code: 250004, msg: 'Please log in again' });
    expect(victim.errors[0]?.headers.code).toBe('250004');
    // The keeper's next message is one published after the change: no notice came before it, and it is open.
    h.app.realtime.publishToUser(id, 'global_message_notice', markedNotice(id, 'sentinel'));
    await poll(() => keeperGot.length >= 1, 'the sentinel');
    expect(keeperGot).toEqual([markedNotice(id, 'sentinel')]);
    expect(keeper.closed()).toBe(false);
    await keeper.stop();
  });

  it('notices a disabled account on its next re-check: type 0 with 250018, then close', async () => {
    const mail = 'rt-disabled@example.com';
    const t = await signUpByMail(h, mail);
    const id = (await api(h.app, accountEndpoints.profile, {}, { token: t })).body.data.id as string;
    const c = await stompClient(url, bearer(t));
    const got: GlobalNotice[] = [];
    await c.subscribe(userDestination('global_message_notice', id), (m) => got.push(JSON.parse(m.body) as GlobalNotice));
    await h.database.db
      .update(users)
      .set({ enabled: false })
      .where(eq(users.id, BigInt(id)));
    await poll(c.closed, 'close after disabling');
    expect(got[0]).toMatchObject({ type: 0, code: 250018 });
    expect(c.errors[0]?.headers.code).toBe('250018');
  });

  it('closes new sockets at once while too many wait to sign in, and takes them again afterwards', async () => {
    const small = await startApp('pglite', {}, { realtime: { maxPendingConnections: 2, connectTimeoutMs: 60_000 } });
    try {
      const smallUrl = await listenForRealtime(small.app);
      const waiting = [await rawSocket(smallUrl), await rawSocket(smallUrl)];
      await poll(() => small.app.realtime.connectionCount() === 2, 'two pending');
      const refused = await rawSocket(smallUrl).catch(() => undefined);
      if (refused) await poll(refused.closed, 'third closed');
      expect(small.app.realtime.connectionCount()).toBe(2);
      for (const w of waiting) w.close();
      await poll(() => small.app.realtime.connectionCount() === 0, 'pending gone');
      const admin = await login(small, 'admin', ADMIN_PASSWORD);
      const c = await stompClient(smallUrl, bearer(admin));
      expect(c.connected).toBeDefined();
      await c.stop();
    } finally {
      await small.close();
    }
  });

  it('leaves no connection and no subscription behind', async () => {
    await poll(() => h.app.realtime.connectionCount() === 0, 'all connections closed');
    expect(h.app.realtime.subscriberCount(userDestination('defective', userId))).toBe(0);
    expect(h.app.realtime.subscriberCount(userDestination('global_message_notice', userId))).toBe(0);
  });
});
