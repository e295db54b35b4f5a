import {
  decodeDown,
  downTopic,
  encodeUp,
  gatewaySessionOptions,
  OnlineHandshake,
  sendPacketsAtOnce,
  subscribeUntilGranted,
  upTopic,
  UplinkStore,
  type CommandMessage,
  type GatewayInfo,
  type ReconnectBackoff,
  type ReplyMessage,
  type StoredUplink,
  type TimerSchedule,
  type UpChannel,
  type UpMessages,
} from '@lumigrid/protocol';
import mqtt, { type MqttClient } from 'mqtt';

export interface GatewayConnectionOptions {
  mac: string;
  password: string;
  /** The Lumigrid broker. */
  url: string;
  keepaliveS?: number;
  /** Up messages kept while the broker or the cloud is away; past it the oldest are dropped. */
  uplinkLimit?: number;
  /** Waits for the cloud's answer before the online state goes again (default 5-10 s, doubling, at most 1-2 minutes). */
  onlineRepeat?: ReconnectBackoff;
  /** Runs the handshake's waits (a refused subscription, an unanswered online state); tests pass manualSchedule's. */
  schedule?: TimerSchedule;
  info(): GatewayInfo;
  /** Called once the cloud may hear the gateway: after every connect, with the full report to send. */
  onOnline(): void;
  /** A decoded command; answers the reply to send (undefined: no reply). */
  onCommand(command: CommandMessage): Promise<ReplyMessage | undefined>;
  log(line: string): void;
}

const SEEN_IDS = 1000;

/**
 * The bridge's side of the Lumigrid protocol (docs/protocol.md): one MQTT connection as the gateway `mac`,
 * the retained online state with its last will, sent once every down topic is granted and repeated until the
 * cloud answers it, commands answered once per id, and up messages kept in the protocol's uplink store until the
 * cloud has answered this connection's online state: the protocol package's handshake, as the simulated gateway's.
 */
export class GatewayConnection {
  private client: MqttClient | undefined;
  private readonly uplink: UplinkStore;
  private generation = 0;
  private readonly handshake: OnlineHandshake;
  private readonly replies = new Map<string, ReplyMessage | undefined>();

  constructor(private readonly options: GatewayConnectionOptions) {
    this.uplink = new UplinkStore(options.uplinkLimit ?? 1000);
    this.handshake = new OnlineHandshake({ backoff: options.onlineRepeat, schedule: options.schedule, log: (line) => options.log(line) });
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  get uplinkDropped(): number {
    return this.uplink.dropped;
  }

  /** Connects; resolves once online, rejects when the broker refuses the gateway's credentials. */
  connect(): Promise<void> {
    const { mac } = this.options;
    const client = mqtt.connect(this.options.url, {
      ...gatewaySessionOptions(mac, this.options.password, this.options.keepaliveS),
      reconnectPeriod: 1000,
    });
    this.client = client;
    this.cloudGone();
    sendPacketsAtOnce(client);
    client.on('close', () => {
      if (this.client !== client) return;
      this.cloudGone();
      for (const id of Object.keys(client.outgoing)) client.removeOutgoingMessage(Number(id));
    });
    client.on('message', (topic, payload) => void this.onDown(topic, payload));
    client.on('error', (error) => this.options.log(`Lumigrid MQTT: ${error.message}`));
    return new Promise((resolve, reject) => {
      let settled = false;
      client.on('connect', () => {
        this.generation++;
        const generation = this.generation;
        const topics = [downTopic(mac, 'cmd'), downTopic(mac, 'config'), downTopic(mac, 'ack')];
        subscribeUntilGranted(
          client,
          topics,
          () => {
            this.publishOnline();
            this.options.onOnline();
            if (!settled) {
              settled = true;
              resolve();
            }
          },
          {
            schedule: this.options.schedule,
            log: (line) => this.options.log(line),
            current: () => this.client === client && this.generation === generation && client.connected,
          },
        );
      });
      client.on('error', (error: Error & { code?: number }) => {
        if (settled || (error.code !== 4 && error.code !== 5)) return;
        settled = true;
        this.client = undefined;
        client.end(true);
        reject(new Error(`gateway ${mac}: the Lumigrid broker refused the connection (${error.message})`));
      });
    });
  }

  /** A planned disconnect: says offline (shutdown) first. */
  async close(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    this.cloudGone();
    if (client.connected) {
      await client
        .publishAsync(upTopic(this.options.mac, 'state'), encodeUp('state', { state: 'offline', reason: 'shutdown', ts: Date.now() }), {
          qos: 1,
          retain: true,
        })
        .catch(() => undefined);
    }
    await client.endAsync();
  }

  /** The retained online state with the gateway's info now (after a configuration or parameters change). */
  publishOnline(): void {
    this.publish('state', { state: 'online', info: this.options.info(), ts: Date.now() }, true);
  }

  /** Sends an up message: the state at once, everything else through the uplink store. */
  publish<C extends UpChannel>(channel: C, message: UpMessages[C], retain = false): void {
    let payload: string;
    try {
      payload = encodeUp(channel, message);
    } catch (error) {
      this.options.log(`refused to send an invalid ${channel}: ${(error as Error).message}`);
      return;
    }
    const topic = upTopic(this.options.mac, channel);
    if (channel !== 'state') {
      this.forward([this.uplink.add(topic, payload)]);
      return;
    }
    const client = this.client;
    if (!client?.connected) return;
    const send = () => client.publish(topic, payload, { qos: 1, retain });
    send();
    const state = message as UpMessages['state'];
    if (state.state === 'online') this.handshake.onlineSent(state.ts, send, () => this.client === client && client.connected);
  }

  /** Hands stored messages to the broker while the cloud listens; each leaves the store on its PUBACK. */
  private forward(messages: StoredUplink[]) {
    const client = this.client;
    if (!client?.connected || !this.handshake.answered) return;
    this.uplink.forward(messages, this.generation, (topic, payload, done) => client.publish(topic, payload, { qos: 1 }, done));
  }

  private cloudGone() {
    this.handshake.reset();
  }

  private async onDown(topic: string, payload: Buffer) {
    const decoded = decodeDown(topic, payload);
    if (!decoded.ok) {
      this.options.log(`dropped a malformed command: ${decoded.error.message}`);
      const id = idOf(payload);
      const code = decoded.error.code === 'unknown_command' ? 'unknown_command' : 'bad_request';
      if (id) this.publish('reply', { id, ok: false, error: { code, message: decoded.error.message.slice(0, 500) } });
      return;
    }
    const down = decoded.value;
    if (down.channel === 'ack') {
      if (this.handshake.acknowledge(down.message.state)) this.forward(this.uplink.waiting(this.generation));
      return;
    }
    const command = down.message;
    if (this.replies.has(command.id)) {
      // A repeated id (QoS 1 redelivery, a retry): answered again, never carried out again.
      const cached = this.replies.get(command.id);
      if (cached) this.publish('reply', cached);
      return;
    }
    this.replies.set(command.id, undefined);
    if (this.replies.size > SEEN_IDS) this.replies.delete(this.replies.keys().next().value!);
    if (command.expiresAt !== undefined && Date.now() > command.expiresAt) {
      const expired: ReplyMessage = { id: command.id, ok: false, error: { code: 'expired', message: 'received after it expired' } };
      this.replies.set(command.id, expired);
      return this.publish('reply', expired);
    }
    const reply = await this.options.onCommand(command);
    if (!reply) return;
    this.replies.set(command.id, reply);
    this.publish('reply', reply);
  }
}

function idOf(payload: Buffer): string | undefined {
  try {
    const value = JSON.parse(payload.toString('utf8')) as { id?: unknown };
    return typeof value.id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value.id) ? value.id : undefined;
  } catch {
    return undefined;
  }
}
