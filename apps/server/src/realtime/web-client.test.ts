// The web app's declaration of sockjs-client's UMD path, which the server's program does not include.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../../web/src/realtime/sockjs.d.ts" />
import type { IStompSocket } from '@stomp/stompjs';
import SockJS from 'sockjs-client';
import { userDestination, accountEndpoints } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The browser's own client, driven here against the real server (sockjs-client's Node build as the socket).
import { createRealtimeClient } from '../../../web/src/realtime/realtime-client.ts';
import { login, signUpByMail, startApp, type Harness, api } from '../test/harness.ts';
import { listenForRealtime, markedFault } from '../test/realtime.fixtures.ts';
import { poll } from '../test/poll.ts';

describe('the web app’s real-time client against the server', () => {
  let h: Harness;
  let url: string;

  beforeAll(async () => {
    h = await startApp('pglite');
    url = await listenForRealtime(h.app);
  });
  afterAll(async () => h?.close());

  async function signedIn(mail: string) {
    const token = await signUpByMail(h, mail);
    const userId = (await api(h.app, accountEndpoints.profile, {}, { token })).body.data.id as string;
    return { token, userId };
  }

  let socketsOpened = 0;
  function client(token: () => string | undefined, ended: number[], onReconnected?: () => void) {
    return createRealtimeClient({
      url,
      token,
      onSessionEnded: (code) => ended.push(code),
      onReconnected,
      reconnectDelayMs: 50,
      maxReconnectDelayMs: 200,
      socket: (to) => {
        socketsOpened += 1;
        return new SockJS(to, undefined, { transports: ['websocket'] }) as unknown as IStompSocket;
      },
    });
  }

  it('listens before connecting, reconnects after the server drops it, subscribes again and says it is back', async () => {
    const { token, userId } = await signedIn('web-client@example.com');
    const ended: number[] = [];
    let reconnects = 0;
    const sut = client(
      () => token,
      ended,
      () => (reconnects += 1),
    );
    const got: unknown[] = [];
    const stop = sut.listen(userDestination('defective', userId), (payload) => got.push(payload));
    sut.start();
    await poll(() => sut.connected() && h.app.realtime.connectionCount() === 1, 'connected');
    // Wait until the subscription is in place on the server, then publish.
    await poll(
      () => {
        h.app.realtime.publishToUser(userId, 'defective', markedFault(userId, 'first'));
        return got.length > 0;
      },
      'first message',
      { timeoutMs: 5_000 },
    );
    expect(reconnects).toBe(0);

    // A server-side failure that is not the end of the session: the client must come back by itself.
    h.app.realtime.endSessions({ userId, code: 100005, notify: false });
    await poll(() => !sut.connected(), 'dropped');
    const before = got.length;
    await poll(
      () => {
        if (sut.connected()) h.app.realtime.publishToUser(userId, 'defective', markedFault(userId, 'second'));
        return got.length > before;
      },
      'message after reconnecting',
      { timeoutMs: 5_000 },
    );
    expect(got.at(-1)).toEqual(markedFault(userId, 'second'));
    expect(reconnects).toBe(1);
    expect(ended).toEqual([]);

    stop();
    await sut.stop();
    await poll(() => h.app.realtime.connectionCount() === 0, 'closed');
  });

  it('says when the server has confirmed a subscription, at first and after a reconnect: what is published then arrives', async () => {
    const { token, userId } = await signedIn('web-client-subscribed@example.com');
    const sut = client(() => token, []);
    const got: unknown[] = [];
    let confirmed = 0;
    // Published the moment the subscription is confirmed: it must arrive, with no wait in between.
    const stop = sut.listen(
      userDestination('defective', userId),
      (payload) => got.push(payload),
      () => h.app.realtime.publishToUser(userId, 'defective', markedFault(userId, `confirmed ${++confirmed}`)),
    );
    sut.start();
    await poll(() => got.length === 1, 'the message published on the first confirmation');
    expect(got).toEqual([markedFault(userId, 'confirmed 1')]);

    h.app.realtime.endSessions({ userId, code: 100005, notify: false });
    await poll(() => got.length === 2, 'the message published on the confirmation after reconnecting');
    expect(got).toEqual([markedFault(userId, 'confirmed 1'), markedFault(userId, 'confirmed 2')]);

    // A second listener on a subscription already in place is not told again.
    const second = sut.listen(
      userDestination('defective', userId),
      () => undefined,
      () => (confirmed += 100),
    );
    h.app.realtime.publishToUser(userId, 'defective', markedFault(userId, 'after'));
    await poll(() => got.length === 3, 'a later message');
    expect(confirmed).toBe(2);
    second();
    stop();
    await sut.stop();
    await poll(() => h.app.realtime.connectionCount() === 0, 'closed');
  });

  it('stops for good and reports the code when the session ends', async () => {
    const { userId } = await signedIn('web-client-ended@example.com');
    const token = await login(h, 'web-client-ended@example.com', 'Secret-Pass1');
    const other = await login(h, 'web-client-ended@example.com', 'Secret-Pass1');
    const ended: number[] = [];
    const sut = client(() => token, ended);
    const notices: unknown[] = [];
    sut.listen(userDestination('global_message_notice', userId), (payload) => notices.push(payload));
    sut.start();
    await poll(() => sut.connected(), 'connected');
    const noticeTopic = userDestination('global_message_notice', userId);
    await poll(() => h.app.realtime.subscriberCount(noticeTopic) === 1, 'subscribed to the notices');
    const changed = await api(
      h.app,
      accountEndpoints.changePassword,
      { body: { oldPassword: 'Secret-Pass1', newPassword: 'Other-Pass2' } },
      { token: other },
    );
    expect(changed.body.code).toBe(0);
    await poll(() => ended.length > 0, 'session ended');
    expect(ended).toEqual([250004]);
    expect(notices).toMatchObject([{ type: 0, code: 250004 }]);
    // No reconnection with the dead token: the client stops for good, so no reconnect is pending.
    const opened = socketsOpened;
    await poll(() => !sut.active(), 'stopped for good');
    expect(sut.connected()).toBe(false);
    expect(socketsOpened).toBe(opened);
    // The server forgets the socket when its close reaches it, which may be after the client has stopped.
    await poll(() => h.app.realtime.connectionCount() === 0, 'closed on the server');
    expect(socketsOpened).toBe(opened);
  });

  it('does not connect without a token', async () => {
    const ended: number[] = [];
    const sut = client(() => undefined, ended);
    const opened = socketsOpened;
    sut.start();
    await poll(() => !sut.active(), 'stopped for good');
    expect(socketsOpened).toBe(opened);
    expect(sut.connected()).toBe(false);
    expect(h.app.realtime.connectionCount()).toBe(0);
  });
});
