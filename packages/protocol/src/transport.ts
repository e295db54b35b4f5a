import { encodeUp } from './codec.ts';
import { upTopic } from './topics.ts';

/** What `sendPacketsAtOnce` needs of an mqtt.js client: its current socket, and its connect event. */
interface StreamClient {
  readonly stream: unknown;
  on(event: 'connect', listener: () => void): unknown;
}

/**
 * Turns Nagle's algorithm off on the client's socket, now and on every reconnect. With it on, a packet
 * written in two parts (mqtt.js writes header and payload separately) waits for the peer to acknowledge the
 * first part, which Linux delays by up to 40 ms: every command and every answer paid that wait.
 */
export function sendPacketsAtOnce(client: StreamClient): void {
  const apply = () => {
    const socket = client.stream as { setNoDelay?: (noDelay: boolean) => unknown } | undefined;
    socket?.setNoDelay?.(true);
  };
  apply();
  client.on('connect', apply);
}

/** One node of a broker address list, as mqtt.js's `servers` option takes it. */
export interface BrokerNode {
  host: string;
  port: number;
  protocol: 'mqtt' | 'mqtts';
}

/**
 * Reads a broker address or a comma-separated list of them (`mqtt://a:1883,mqtt://b:1883`: the MQTT listeners
 * of a clustered broker's nodes). Given to mqtt.js as `mqtt.connect(url, { servers })`, a client tries the next
 * node on each reconnect, so a node that dies costs a reconnect, not the link. User and password are read
 * from the first address only. One address goes to mqtt.js as it is (ws:// too); in a list, each must be
 * mqtt:// or mqtts://, or it throws.
 */
export function brokerNodes(list: string): { url: string; servers: BrokerNode[] | undefined } {
  const urls = list
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (urls.length === 1) return { url: urls[0]!, servers: undefined };
  const nodes = urls.map((raw) => {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new Error(`not a broker address: "${raw}"`);
    }
    if (parsed.protocol !== 'mqtt:' && parsed.protocol !== 'mqtts:') throw new Error(`not an mqtt:// or mqtts:// address: "${raw}"`);
    const protocol = parsed.protocol === 'mqtts:' ? 'mqtts' : 'mqtt';
    return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : protocol === 'mqtts' ? 8883 : 1883, protocol } as const;
  });
  if (urls.length === 0) throw new Error('no broker address');
  return { url: urls[0]!, servers: nodes };
}

/**
 * The MQTT session a gateway opens with the cloud's broker (mqtt.js options): its MAC as client id and user
 * name, a persistent session, and the retained 'offline' state the broker publishes for it once it is lost.
 * How it reconnects, and to which nodes, is the caller's.
 */
export function gatewaySessionOptions(mac: string, password: string, keepaliveS = 60) {
  return {
    clientId: mac,
    username: mac,
    password,
    // A persistent session: QoS 1 commands sent during a short outage arrive after it.
    clean: false,
    connectTimeout: 10_000,
    keepalive: keepaliveS,
    // The gateway subscribes again on every connect.
    resubscribe: false,
    protocolVersion: 4 as const,
    will: {
      topic: upTopic(mac, 'state'),
      payload: encodeUp('state', { state: 'offline', reason: 'lost' }),
      qos: 1 as const,
      retain: true,
    },
  };
}
