import { createHmac } from 'node:crypto';

/**
 * A gateway's MQTT password derived from a shared secret: HMAC-SHA256(secret, MAC) in base64url, first 32
 * characters. Gateways flashed with one secret and the server's provisioning compute the same password, so a
 * fleet is provisioned without handling each password (docs/protocol.md "Provisioning").
 */
export function derivePassword(secret: string, mac: string): string {
  return createHmac('sha256', secret).update(mac).digest('base64url').slice(0, 32);
}
