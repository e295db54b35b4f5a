/** An up message waiting for the cloud, and the connection it was last handed to the broker on. */
export interface StoredUplink {
  topic: string;
  payload: string;
  /** The connection (UplinkStore generation) it was published on and awaits a PUBACK from; undefined while waiting. */
  sentOn?: number;
}

/** A QoS 1 publish, as an MQTT client makes one: `done` runs on the broker's PUBACK, or with the error that stopped it. */
export type QosPublish = (topic: string, payload: string, done: (error?: Error) => void) => void;

/**
 * Store-and-forward of a gateway's QoS 1 up messages (docs/protocol.md section 3): a message stays here from
 * the moment the gateway makes it until the broker acknowledged it (PUBACK) on a connection the cloud
 * listens to, so nothing made while the broker or the cloud is away is lost. Bounded like a real gateway's
 * memory: past `limit` the oldest message is dropped and counted.
 */
export class UplinkStore {
  private readonly messages = new Set<StoredUplink>();
  private droppedCount = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`the uplink store needs room for at least one message, not ${limit}`);
  }

  /** Messages dropped because the store was full, since the gateway started. */
  get dropped(): number {
    return this.droppedCount;
  }

  get size(): number {
    return this.messages.size;
  }

  add(topic: string, payload: string): StoredUplink {
    const message: StoredUplink = { topic, payload };
    this.messages.add(message);
    for (const oldest of this.messages) {
      if (this.messages.size <= this.limit) break;
      this.messages.delete(oldest);
      this.droppedCount++;
    }
    return message;
  }

  /** The broker took it: it is the broker's now. */
  delivered(message: StoredUplink): void {
    this.messages.delete(message);
  }

  /**
   * Hands `messages` to the broker on connection `generation`, each once a connection: a message leaves the store
   * on its PUBACK (and `onDelivered` hears of it), and one whose publish failed waits to be handed over again.
   */
  forward(messages: StoredUplink[], generation: number, publish: QosPublish, onDelivered?: (message: StoredUplink) => void): void {
    for (const message of messages) {
      if (message.sentOn === generation) continue;
      message.sentOn = generation;
      publish(message.topic, message.payload, (error) => {
        if (!error) {
          this.delivered(message);
          onDelivered?.(message);
        } else if (message.sentOn === generation) message.sentOn = undefined;
      });
    }
  }

  /** The messages not yet handed to the broker on connection `generation`, oldest first. */
  waiting(generation: number): StoredUplink[] {
    return [...this.messages].filter((m) => m.sentOn !== generation);
  }
}
