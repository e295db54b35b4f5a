import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../http/app-error.ts';
import type { AuthContext } from '../http/auth.ts';
import { addUserTopics, createDestinationRouter } from './destinations.ts';
import { DEFAULT_REALTIME_OPTIONS } from './realtime-hub.ts';
import { createStompConnection, type RealtimeAuthenticate, type StompConnection } from './stomp-connection.ts';
import { poll } from '../test/poll.ts';

const CALLER: AuthContext = { userId: 7n, tenantId: 7n, userAuth: 2, operateAuth: 0, lang: 'ja', sessionId: 70n };
const CONNECT = 'CONNECT\naccept-version:1.2\nAuthorization:Bearer good\n\n\0';

/** One connection over a fake transport that records what the server wrote. */
function rig(authenticate: RealtimeAuthenticate, options: Partial<typeof DEFAULT_REALTIME_OPTIONS> = {}) {
  const written: string[] = [];
  let closed = false;
  const router = createDestinationRouter();
  addUserTopics(router);
  const events: string[] = [];
  const sut: StompConnection = createStompConnection({
    id: 'c1',
    transport: { write: (text) => void written.push(text), close: () => void (closed = true) },
    authenticate,
    router,
    registry: {
      authenticated: () => true,
      subscribed: (_c, destination) => void events.push(`+${destination}`),
      unsubscribed: (_c, destination) => void events.push(`-${destination}`),
      closed: () => void events.push('closed'),
    },
    options: { ...DEFAULT_REALTIME_OPTIONS, heartBeatSendMs: 0, heartBeatReceiveMs: 0, ...options },
    logger: pino({ level: 'silent' }),
  });
  return { sut, written, text: () => written.join(''), closed: () => closed, events };
}

describe('one STOMP connection', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('handles SUBSCRIBE sent right behind CONNECT only after the sign-in finished', async () => {
    let release: (() => void) | undefined;
    const slow: RealtimeAuthenticate = () => new Promise((resolve) => (release = () => resolve(CALLER)));
    const r = rig(slow);
    r.sut.receive(`${CONNECT}SUBSCRIBE\nid:a\ndestination:/topic/defective/7\nreceipt:r1\n\n\0`);
    await poll(() => release !== undefined, 'the sign-in started');
    expect(r.written).toEqual([]);
    release!();
    await poll(() => r.text().includes('RECEIPT'), 'receipt');
    expect(r.written[0]).toMatch(/^CONNECTED\n/);
    expect(r.written[1]).toBe('RECEIPT\nreceipt-id:r1\n\n\0');
    expect(r.events).toEqual(['+/topic/defective/7']);
    r.sut.transportClosed();
  });

  it('answers ERROR 100005 when the session lookup itself fails, without leaking why', async () => {
    const r = rig(async () => {
      throw new Error('database is down');
    });
    r.sut.receive(CONNECT);
    await poll(r.closed, 'close');
    expect(r.text()).toContain('code:100005');
    expect(r.text()).not.toContain('database');
  });

  it('keeps a connection whose re-check cannot reach the database, and ends one whose session expired', async () => {
    let answer: () => Promise<AuthContext> = async () => CALLER;
    let checks = 0;
    const r = rig(
      () => {
        checks += 1;
        return answer();
      },
      { revalidateMs: 20 },
    );
    r.sut.receive(`${CONNECT}SUBSCRIBE\nid:n\ndestination:/topic/global_message_notice/7\nreceipt:r\n\n\0`);
    await poll(() => r.text().includes('RECEIPT'), 'receipt');

    answer = async () => {
      throw new Error('connection refused');
    };
    const failedFrom = checks;
    await poll(() => checks >= failedFrom + 3, 'three failed re-checks');
    expect(r.closed()).toBe(false);

    answer = async () => {
      throw new AppError(100009);
    };
    await poll(r.closed, 'close');
    const message = r.written.find((w) => w.startsWith('MESSAGE'));
    const body = JSON.parse(message!.slice(message!.indexOf('\n\n') + 2, -1));
    // The notice is in the user's language (ja), for the ended session only.
    expect(body).toEqual({
      type: 0,
      userId: '7',
      code: 100009,
      msg: 'セッションの有効期限が切れました。再度ログインしてください',
      id: '70',
    });
    expect(r.written.at(-1)).toMatch(/^ERROR\n[\s\S]*code:100009/);
    expect(r.events.at(-1)).toBe('closed');
  });

  it('re-checks without counting as activity', async () => {
    const calls: Array<{ touch?: boolean } | undefined> = [];
    const r = rig(
      async (_token, options) => {
        calls.push(options);
        return CALLER;
      },
      { revalidateMs: 20 },
    );
    r.sut.receive(CONNECT);
    await poll(() => calls.length >= 3, 're-checks');
    expect(calls[0]).toBeUndefined();
    expect(calls.slice(1)).toEqual(calls.slice(1).map(() => ({ touch: false })));
    r.sut.transportClosed();
  });

  it('stops all its timers when the socket goes away', async () => {
    vi.useFakeTimers();
    let count = 0;
    const r = rig(
      async () => {
        count += 1;
        return CALLER;
      },
      { revalidateMs: 20, heartBeatSendMs: 20, heartBeatReceiveMs: 20 },
    );
    r.sut.receive('CONNECT\naccept-version:1.2\nAuthorization:Bearer good\nheart-beat:20,20\n\n\0');
    await vi.advanceTimersByTimeAsync(50);
    expect(count).toBeGreaterThanOrEqual(2);
    r.sut.transportClosed();
    const [calls, writes] = [count, r.written.length];
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect([count, r.written.length]).toEqual([calls, writes]);
  });
});
