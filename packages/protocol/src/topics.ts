/** Version segment of every topic; a breaking protocol change gets a new one beside it. */
export const PROTOCOL_VERSION = 'v1';

/** What a gateway publishes (up) and what the cloud sends it (down), ARCHITECTURE.md section 5. */
export const UP_CHANNELS = ['state', 'report', 'telemetry', 'event', 'reply'] as const;
export const DOWN_CHANNELS = ['cmd', 'config', 'ack'] as const;
export type UpChannel = (typeof UP_CHANNELS)[number];
export type DownChannel = (typeof DOWN_CHANNELS)[number];

/** A gateway MAC as the protocol carries it: twelve upper-case hex digits. */
export const MAC_PATTERN = '^[0-9A-F]{12}$';
/** A gateway MAC as a person types it: twelve hex digits, with or without ':' or '-' between pairs. */
export const MAC_INPUT_PATTERN = '^[0-9A-Fa-f]{2}([:-]?[0-9A-Fa-f]{2}){5}$';
const MAC = new RegExp(MAC_PATTERN);

/** A gateway MAC in topic form: twelve upper-case hex digits, separators removed. */
export function normaliseMac(mac: string): string | undefined {
  const bare = mac.replace(/[:\-.\s]/g, '').toUpperCase();
  return MAC.test(bare) ? bare : undefined;
}

export function upTopic(mac: string, channel: UpChannel): string {
  return `lg/${PROTOCOL_VERSION}/${mac}/up/${channel}`;
}

export function downTopic(mac: string, channel: DownChannel): string {
  return `lg/${PROTOCOL_VERSION}/${mac}/down/${channel}`;
}

/** Splits a topic into its gateway and channel, or undefined for anything outside the protocol. */
export function parseTopic(
  topic: string,
): { mac: string; direction: 'up'; channel: UpChannel } | { mac: string; direction: 'down'; channel: DownChannel } | undefined {
  const parts = topic.split('/');
  if (parts.length !== 5 || parts[0] !== 'lg' || parts[1] !== PROTOCOL_VERSION) return undefined;
  const [, , mac = '', direction, channel] = parts;
  if (!MAC.test(mac)) return undefined;
  if (direction === 'up' && (UP_CHANNELS as readonly string[]).includes(channel!)) return { mac, direction, channel: channel as UpChannel };
  if (direction === 'down' && (DOWN_CHANNELS as readonly string[]).includes(channel!))
    return { mac, direction, channel: channel as DownChannel };
  return undefined;
}

/**
 * The NATS subject that matches one up channel of every gateway, as a NATS broker's MQTT listener names topics
 * ('/' becomes '.', '+' becomes '*'). The protocol's topics hold no '.', so the mapping goes both ways.
 */
export function upNatsSubject(channel: UpChannel): string {
  return `lg.${PROTOCOL_VERSION}.*.up.${channel}`;
}

/** The MQTT topic of a NATS subject of the protocol (`lg.v1.{mac}.up.report` -> `lg/v1/{mac}/up/report`). */
export function topicOfNatsSubject(subject: string): string {
  return subject.replaceAll('.', '/');
}
