import { normaliseMac } from './topics.ts';

/**
 * The QR code on a gateway (docs/protocol.md section 8, "The gateway's QR code"): `LG1:` then the MAC in topic
 * form, then optionally `:` and a pairing secret. Short on purpose: a small code reads from a phone at arm's
 * length in a dim ceiling void.
 */
export const GATEWAY_QR_PREFIX = 'LG1:';
/** A pairing secret: 16-64 base64url characters, printed on the label beside the code. */
const SECRET = /^[A-Za-z0-9_-]{16,64}$/;

export interface GatewayQr {
  mac: string;
  secret?: string;
}

export function gatewayQrText(qr: GatewayQr): string {
  const mac = normaliseMac(qr.mac);
  if (!mac) throw new Error(`not a gateway MAC: ${qr.mac}`);
  if (qr.secret !== undefined && !SECRET.test(qr.secret)) throw new Error('a pairing secret is 16-64 base64url characters');
  return `${GATEWAY_QR_PREFIX}${mac}${qr.secret ? `:${qr.secret}` : ''}`;
}

/**
 * What a scanned or typed text names: the QR payload, or a bare MAC (a label without a code, or typed by
 * hand, with or without separators). Undefined for anything else, such as another product's code.
 */
export function parseGatewayQr(text: string): GatewayQr | undefined {
  const trimmed = text.trim();
  if (trimmed.toUpperCase().startsWith(GATEWAY_QR_PREFIX)) {
    const [macPart, secret, ...rest] = trimmed.slice(GATEWAY_QR_PREFIX.length).split(':');
    const mac = normaliseMac(macPart ?? '');
    if (!mac || rest.length > 0 || (secret !== undefined && !SECRET.test(secret))) return undefined;
    return secret === undefined ? { mac } : { mac, secret };
  }
  const mac = /^[0-9A-Fa-f]{2}([:-]?[0-9A-Fa-f]{2}){5}$/.test(trimmed) ? normaliseMac(trimmed) : undefined;
  return mac ? { mac } : undefined;
}
