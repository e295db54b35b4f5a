import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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

/** Options of the gateway verifier; every one has a default for the server. */
export interface GatewayVerifierOptions {
  /** argon2 checks running at once (the cores of the machine); later sign-ins wait their turn in arrival order. */
  concurrency?: number;
  /** Sign-ins that may wait for a check; past it a gateway is told "server unavailable" and backs off. */
  maxWaiting?: number;
  /** Successes remembered; past it the oldest is forgotten. */
  maxEntries?: number;
  /** The slow check (argon2 of lib/password.ts); tests count its calls. */
  verify?: (passwordHash: string, password: string) => Promise<boolean>;
  /** The key of the remembered digests: random per process unless given (GATEWAY_VERIFIER_KEY, tests). */
  key?: Buffer;
  /**
   * A file that keeps the remembered successes across restarts (DATA_DIR/gateway-verified.json). Only with a
   * `key` from outside the data folder: the file holds keyed digests, worthless to a reader without the key.
   */
  file?: string;
}

/** Too many gateways are waiting for a password check: the broker answers "server unavailable" (retry later). */
export class VerifierBusyError extends Error {
  constructor() {
    super('too many gateway sign-ins waiting for a password check');
  }
}

/**
 * Checks gateway passwords against their stored hashes; an unknown gateway is a refusal, while a store that
 * cannot answer (the database is down) rejects, so the broker says "server unavailable", not "wrong password".
 *
 * A reconnect storm (every gateway after a broker or server restart) must not turn into a storm of argon2
 * checks, each of which takes tens of milliseconds of a core:
 * - a success is remembered as an HMAC of the MAC and password under a key that never leaves this process,
 *   beside the hash it matched, so the next sign-in with the same password costs a lookup and a SHA-256; a
 *   changed hash (a new password issued) or a gateway gone from the store forgets it at once, and a failure
 *   is never remembered. The password itself is kept only until its own check has run.
 * - checks are paced: at most `concurrency` run at once and the others wait in arrival order, so the event
 *   loop and the database keep up with the gateways already in; past `maxWaiting` a sign-in is refused as
 *   "server unavailable".
 * - attempts of one gateway with one password share one check: a gateway whose connect timed out while it
 *   waited finds the answer remembered when it comes back, instead of starting a second check.
 */
export function createGatewayVerifier(store: GatewayCredentialStore, options: GatewayVerifierOptions = {}) {
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  const maxWaiting = options.maxWaiting ?? 20_000;
  const maxEntries = options.maxEntries ?? 100_000;
  const slowVerify = options.verify ?? verifyPassword;
  const key = options.key ?? randomBytes(32);
  // The stored hash enters the memory only as a tag: enough to see that a new password was issued.
  const tagOf = (hash: string) => createHmac('sha256', key).update(hash).digest('base64');
  const verified = loadRemembered(options.file, maxEntries);
  const file = options.file;
  let saveTimer: NodeJS.Timeout | undefined;
  /** Written a second after the last change, so a fleet signing in writes the file a few times, not once per gateway. */
  function changed() {
    if (!file || saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      saveRemembered(file, verified);
    }, 1000);
    saveTimer.unref();
  }
  const inFlight = new Map<string, Promise<boolean>>();
  const waiting: Array<() => void> = [];
  let running = 0;
  const digestOf = (mac: string, password: string) => createHmac('sha256', key).update(mac).update('\0').update(password).digest();

  async function paced(check: () => Promise<boolean>): Promise<boolean> {
    if (running < concurrency) running++;
    else {
      if (waiting.length >= maxWaiting) throw new VerifierBusyError();
      // The turn is handed over with the slot: `running` stays counted for the waiter.
      await new Promise<void>((turn) => waiting.push(turn));
    }
    try {
      return await check();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }

  async function verifyGateway(mac: string, password: string): Promise<boolean> {
    const hash = await store.passwordHash(mac);
    if (hash === undefined) {
      if (verified.delete(mac)) changed();
      return false;
    }
    const digest = digestOf(mac, password);
    const tag = tagOf(hash);
    const known = verified.get(mac);
    if (known && known.tag === tag && timingSafeEqual(known.digest, digest)) return true;
    const flight = `${digest.toString('base64')}:${hash}`;
    let check = inFlight.get(flight);
    if (!check) {
      check = paced(() => slowVerify(hash, password)).finally(() => inFlight.delete(flight));
      inFlight.set(flight, check);
    }
    if (!(await check)) return false;
    // Put last, so the first forgotten is the one signed in longest ago.
    verified.delete(mac);
    if (verified.size >= maxEntries) verified.delete(verified.keys().next().value!);
    verified.set(mac, { tag, digest });
    changed();
    return true;
  }

  return Object.assign(verifyGateway, {
    /** Checks running or waiting now (tests, metrics). */
    pending: () => running + waiting.length,
    /** Gateways with a remembered success. */
    remembered: () => verified.size,
    /** Writes the file now (a server that stops). */
    flush() {
      clearTimeout(saveTimer);
      saveTimer = undefined;
      if (file) saveRemembered(file, verified);
    },
  });
}

type Remembered = Map<string, { tag: string; digest: Buffer }>;

/** The remembered successes of the file, or none when there is none or it cannot be read (then each gateway is checked again). */
function loadRemembered(file: string | undefined, maxEntries: number): Remembered {
  const remembered: Remembered = new Map();
  if (!file) return remembered;
  try {
    const rows = JSON.parse(readFileSync(file, 'utf8')) as Array<[string, string, string]>;
    for (const [mac, tag, digest] of rows.slice(-maxEntries))
      if (typeof mac === 'string' && typeof tag === 'string' && typeof digest === 'string')
        remembered.set(mac, { tag, digest: Buffer.from(digest, 'base64') });
  } catch {
    // Missing or damaged: a cache, not a record.
  }
  return remembered;
}

function saveRemembered(file: string, remembered: Remembered) {
  const rows = [...remembered].map(([mac, r]) => [mac, r.tag, r.digest.toString('base64')]);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, JSON.stringify(rows), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // A cache that cannot be written costs an argon2 check per gateway after the next restart, nothing else.
  }
}
export type GatewayVerifier = ReturnType<typeof createGatewayVerifier>;
