import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup as lookupCallback } from 'node:dns';
import { AppError } from '../../http/app-error.ts';

/**
 * Addresses a SaaS server never calls on a customer's behalf (server-side request forgery): loopback, the
 * private ranges, link-local (cloud metadata at 169.254.169.254 included), carrier-grade NAT, unspecified,
 * multicast and reserved, in IPv4 and IPv6 (IPv4 written as IPv6 is refused whole: no public endpoint needs it).
 */
const REFUSED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // Unspecified, loopback and the IPv4-compatible and IPv4-mapped forms (an IPv4 address written as IPv6).
  ['::', 96],
  ['::ffff:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is one a SaaS server refuses to call. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return REFUSED.check(address, 'ipv4');
  if (family === 6) return REFUSED.check(address, 'ipv6');
  return true;
}

/** The endpoint's URL, or 102001 for anything but an absolute http(s) URL without credentials. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError(102001);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || !url.hostname) throw new AppError(102001);
  return url;
}

/** The host of a URL as a resolver takes it: IPv6 literals lose their brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Refuses (`refusedCode`, a webhook's 102002 by default) a URL whose host is, or resolves to, a refused address:
 * checked at registration. A name that does not resolve now is refused as well: it cannot be checked.
 */
export async function assertPublicUrl(url: URL, refusedCode: 102002 | 103010 = 102002): Promise<void> {
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new AppError(refusedCode);
    }
  }
  if (addresses.length === 0 || addresses.some(isRefusedAddress)) throw new AppError(refusedCode);
}

/**
 * A `lookup` for http.request that refuses refused addresses when the connection is made, so a name whose
 * answer changed after registration (DNS rebinding) is caught at delivery, on the address actually dialled.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookupCallback(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as unknown as Array<{ address: string; family: number }>;
    const refused = list.find((a) => isRefusedAddress(a.address));
    if (refused || list.length === 0) {
      const err = Object.assign(new Error(`refused address ${refused?.address ?? 'none'} for ${hostname}`), { code: 'EREFUSEDADDRESS' });
      return callback(err, '', 0);
    }
    if (options.all) return callback(null, list as never);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
