import { PROTOCOL_VERSION, MAC_PATTERN } from '@lumigrid/protocol';

/** Who a broker connection is: the server itself, or one gateway by its MAC. */
export type LinkIdentity = { kind: 'server' } | { kind: 'gateway'; mac: string };

const GATEWAY_TOPIC = new RegExp(`^lg/${PROTOCOL_VERSION}/(${MAC_PATTERN.slice(1, -1)})/(up|down)/([a-z]+)$`);

/**
 * A gateway publishes only on its own up topics. The server publishes anywhere under lg/ (down topics,
 * and retained-state clean-up). Nothing else, not even the server, publishes outside lg/.
 */
export function mayPublish(who: LinkIdentity, topic: string): boolean {
  if (who.kind === 'server') return topic.startsWith('lg/') && !/[+#]/.test(topic);
  const m = GATEWAY_TOPIC.exec(topic);
  return m !== null && m[1] === who.mac && m[2] === 'up';
}

/**
 * A gateway subscribes only to its own down topics, exactly or with a trailing wildcard
 * (`lg/v1/{mac}/down/#`, `lg/v1/{mac}/down/+`). Only the server may use wildcards across gateways.
 */
export function maySubscribe(who: LinkIdentity, filter: string): boolean {
  if (who.kind === 'server') return true;
  const own = `lg/${PROTOCOL_VERSION}/${who.mac}/down/`;
  if (!filter.startsWith(own)) return false;
  const rest = filter.slice(own.length);
  return rest === '#' || rest === '+' || /^[a-z]+$/.test(rest);
}

/**
 * A gateway's client id must be its MAC (optionally with a suffix after '-'), so one gateway can never
 * take over another's session by reusing its client id.
 */
export function mayUseClientId(who: LinkIdentity, clientId: string): boolean {
  if (who.kind === 'server') return clientId.startsWith('lumigrid-server-');
  return clientId === who.mac || clientId.startsWith(`${who.mac}-`);
}
