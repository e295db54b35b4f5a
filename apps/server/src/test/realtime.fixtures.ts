import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import SockJS from 'sockjs-client';
import {
  REALTIME_ENDPOINT,
  userDestination,
  type DefectiveNotice,
  type GatewayUpdateNotice,
  type UserTopic,
  type UserTopicMessages,
} from '@lumigrid/contract';
import type { App } from '../http/types.ts';
import { poll } from './poll.ts';

/** A fault notice a test publishes as its own mark, told apart by its name: a valid message of its topic. */
export const markedFault = (userId: string, name: string): DefectiveNotice => ({ userId, id: '1', name, code: 1 });

/** A mark on the global notice topic: a firmware result told apart by its gateway's name. */
export const markedNotice = (userId: string, name: string): GatewayUpdateNotice => ({
  type: 1,
  userId,
  name,
  result: 1,
  id: '1',
  mac: '00:00:00:00:00:00',
  target: 'gateway',
  version: '0',
});

/** Starts the app on a free loopback port and answers the SockJS URL of the real-time endpoint. */
export async function listenForRealtime(app: App): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}${REALTIME_ENDPOINT}`;
}

export interface StompTestClient {
  client: Client;
  /** The CONNECTED frame, when the server accepted. */
  connected?: IFrame;
  /** ERROR frames received. */
  errors: IFrame[];
  /** Whether the socket has closed. */
  closed: () => boolean;
  /** Subscribes and waits for the server's RECEIPT, so a publish after it is delivered. */
  subscribe(destination: string, onMessage: (message: IMessage) => void): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real @stomp/stompjs client over sockjs-client, without reconnection. Answers once CONNECTED, an ERROR
 * or the close arrived.
 */
export async function stompClient(
  url: string,
  connectHeaders: Record<string, string>,
  heartBeat: { incoming: number; outgoing: number } = { incoming: 0, outgoing: 0 },
  transports: string[] = ['websocket'],
): Promise<StompTestClient> {
  const errors: IFrame[] = [];
  let closed = false;
  let connected: IFrame | undefined;
  let receiptSeq = 0;
  const client = new Client({
    webSocketFactory: () => new SockJS(url, undefined, { transports }),
    connectHeaders,
    reconnectDelay: 0,
    heartbeatIncoming: heartBeat.incoming,
    heartbeatOutgoing: heartBeat.outgoing,
    debug: () => undefined,
  });
  const settled = new Promise<void>((resolve) => {
    client.onConnect = (frame) => {
      connected = frame;
      resolve();
    };
    client.onStompError = (frame) => {
      errors.push(frame);
      resolve();
    };
    client.onWebSocketClose = () => {
      closed = true;
      resolve();
    };
  });
  client.activate();
  await settled;
  return {
    client,
    get connected() {
      return connected;
    },
    errors,
    closed: () => closed,
    async subscribe(destination, onMessage) {
      receiptSeq += 1;
      const receipt = `sub-${receiptSeq}`;
      const done = new Promise<void>((resolve) => client.watchForReceipt(receipt, () => resolve()));
      client.subscribe(destination, onMessage, { receipt });
      await Promise.race([done, poll(() => errors.length > 0 || closed, `receipt of ${destination}`, { timeoutMs: 3_000 })]);
    },
    async stop() {
      await client.deactivate();
    },
  };
}

/** A bare SockJS socket for sending hand-made (and malformed) frames. */
export async function rawSocket(url: string) {
  const sock = new SockJS(url, undefined, { transports: ['websocket'] });
  const received: string[] = [];
  let closed = false;
  sock.onmessage = (event: { data: unknown }) => received.push(String(event.data));
  sock.onclose = () => {
    closed = true;
  };
  await new Promise<void>((resolve, reject) => {
    sock.onopen = () => resolve();
    setTimeout(() => reject(new Error('SockJS did not open')), 3_000);
  });
  return {
    send: (text: string) => sock.send(text),
    received,
    /** Everything received, joined: frames may arrive one per SockJS message or several in one. */
    text: () => received.join(''),
    closed: () => closed,
    close: () => sock.close(),
  };
}

/**
 * A client signed in with `token` on a user's topic, collecting every message it receives into `into`, typed as the
 * contract carries it. Answers the client, to stop it.
 */
export async function listenToUserTopic<Topic extends UserTopic>(
  url: string,
  token: string,
  topic: Topic,
  userId: string,
  into: Array<UserTopicMessages[Topic]>,
): Promise<StompTestClient> {
  const client = await stompClient(url, { Authorization: `Bearer ${token}` });
  await client.subscribe(userDestination(topic, userId), (m) => into.push(JSON.parse(m.body) as UserTopicMessages[Topic]));
  return client;
}
