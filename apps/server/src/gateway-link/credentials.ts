import { createHash, randomBytes } from 'node:crypto';
import { normaliseMac } from '@lumigrid/protocol';
import { hashPassword, verifyPassword } from '../lib/password.ts';

/**
 * Where the broker finds a gateway's password hash: the gateways table in the server, an in-memory store in
 * link-only tests. A gateway unknown to the store cannot connect.
 */
export interface GatewayCredentialStore {
  /** The argon2 hash of the gateway's MQTT password, or undefined for a gateway that may not connect. */
  passwordHash(mac: string): Promise<string | undefined>;
}

/** The server's own broker identity: it alone may subscribe across gateways and publish down topics. */
export interface ServerCredential {
  username: string;
  password: string;
}

/** Usernames that are not a MAC; a gateway's username is always its twelve-digit MAC. */
export const SERVER_USERNAME = 'lumigrid-server';

/** A fresh server credential for an embedded broker: nobody outside this process ever knows it. */
export function randomServerCredential(): ServerCredential {
  return { username: SERVER_USERNAME, password: randomBytes(24).toString('base64url') };
}

/** An in-memory store, for tests of the gateway link alone. */
export function createMemoryCredentialStore() {
  const hashes = new Map<string, string>();
  return {
    async passwordHash(mac: string) {
      return hashes.get(mac);
    },
    /** Issues (or replaces) a gateway's password; stores only its hash. */
    async set(mac: string, password: string) {
      const key = normaliseMac(mac);
      if (!key) throw new Error(`not a gateway MAC: ${mac}`);
      hashes.set(key, await hashPassword(password));
    },
    remove(mac: string) {
      hashes.delete(normaliseMac(mac) ?? mac);
    },
  } satisfies GatewayCredentialStore & Record<string, unknown>;
}
export type MemoryCredentialStore = ReturnType<typeof createMemoryCredentialStore>;

/**
 * Checks gateway passwords against their stored hashes; an unknown gateway is a refusal, while a store that
 * cannot answer (the database is down) rejects, so the broker says "server unavailable", not "wrong password". A success is remembered
 * (as a SHA-256 of the password, beside the hash it matched) so that a reconnect storm of thousands of
 * gateways after a broker restart costs one argon2 check per gateway, not one per attempt. A changed hash in
 * the store (a new password issued) invalidates the memory at once.
 */
export function createGatewayVerifier(store: GatewayCredentialStore, maxEntries = 100_000) {
  const verified = new Map<string, { hash: string; digest: string }>();
  const digestOf = (password: string) => createHash('sha256').update(password).digest('hex');
  return async function verifyGateway(mac: string, password: string): Promise<boolean> {
    const hash = await store.passwordHash(mac);
    if (hash === undefined) {
      verified.delete(mac);
      return false;
    }
    const known = verified.get(mac);
    const digest = digestOf(password);
    if (known && known.hash === hash && known.digest === digest) return true;
    if (!(await verifyPassword(hash, password))) return false;
    if (verified.size >= maxEntries) verified.delete(verified.keys().next().value!);
    verified.set(mac, { hash, digest });
    return true;
  };
}
