import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGatewayVerifier, VerifierBusyError } from './credentials.ts';

const A = 'A4C138000001';
const B = 'A4C138000002';

/**
 * A store whose "hash" is the password behind a version mark, and a slow check the test releases by hand, so the
 * test sees every check the verifier starts and how many run at once.
 */
function rig(options: { concurrency?: number; maxWaiting?: number } = {}) {
  const hashes = new Map<string, string>();
  let version = 0;
  const checks: Array<{ hash: string; password: string; release: () => void }> = [];
  let running = 0;
  let mostAtOnce = 0;
  const verify = createGatewayVerifier(
    { passwordHash: async (mac) => hashes.get(mac) },
    {
      ...options,
      verify: async (hash, password) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise<void>((release) => checks.push({ hash, password, release }));
        running--;
        return hash.slice(hash.indexOf(':') + 1) === password;
      },
    },
  );
  return {
    verify,
    checks,
    mostAtOnce: () => mostAtOnce,
    set: (mac: string, password: string) => void hashes.set(mac, `v${++version}:${password}`),
    remove: (mac: string) => void hashes.delete(mac),
    /** Lets every check started so far finish, and waits for the ones they hand their turn to. */
    async releaseAll() {
      while (checks.length > 0) {
        for (const c of checks.splice(0)) c.release();
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

/** Answers the verifier's promise once every check it waits for has been released. */
async function settle<T>(r: ReturnType<typeof rig>, answer: Promise<T>): Promise<T> {
  await new Promise((resolve) => setImmediate(resolve));
  await r.releaseAll();
  return answer;
}

/** Settles an answer after seeing that it waits on exactly one check of the password. */
async function settleOneCheck<T>(r: ReturnType<typeof rig>, answer: Promise<T>): Promise<T> {
  await new Promise((resolve) => setImmediate(resolve));
  expect(r.checks).toHaveLength(1);
  return settle(r, answer);
}

describe('gateway credential cache', () => {
  it('checks a password once: the next sign-in with it is a hit', async () => {
    const r = rig();
    r.set(A, 'secret-1');
    expect(await settle(r, r.verify(A, 'secret-1'))).toBe(true);
    expect(await r.verify(A, 'secret-1')).toBe(true);
    expect(r.checks).toHaveLength(0);
    expect(r.verify.remembered()).toBe(1);
  });

  it('refuses a gateway the store does not know, without a check', async () => {
    const r = rig();
    expect(await r.verify(B, 'anything')).toBe(false);
    expect(r.checks).toHaveLength(0);
  });

  it('never remembers a wrong password as good, and a wrong one after a good one is still wrong', async () => {
    const r = rig();
    r.set(A, 'secret-1');
    let started = 0;
    const count = async (answer: Promise<boolean>) => {
      await new Promise((resolve) => setImmediate(resolve));
      started += r.checks.length;
      return settle(r, answer);
    };
    expect(await count(r.verify(A, 'wrong'))).toBe(false);
    expect(await count(r.verify(A, 'wrong'))).toBe(false);
    expect(started).toBe(2);
    expect(r.verify.remembered()).toBe(0);
    expect(await count(r.verify(A, 'secret-1'))).toBe(true);
    expect(await count(r.verify(A, 'wrong'))).toBe(false);
    expect(await r.verify(A, 'secret-1')).toBe(true);
    expect(started).toBe(4);
  });

  it('forgets a success when the secret changes: the old one is refused, the new one checked', async () => {
    const r = rig();
    r.set(A, 'secret-1');
    expect(await settle(r, r.verify(A, 'secret-1'))).toBe(true);
    r.set(A, 'secret-2');
    expect(await settle(r, r.verify(A, 'secret-1'))).toBe(false);
    expect(await settleOneCheck(r, r.verify(A, 'secret-2'))).toBe(true);
  });

  it('forgets a gateway that was deleted, and refuses it', async () => {
    const r = rig();
    r.set(A, 'secret-1');
    expect(await settle(r, r.verify(A, 'secret-1'))).toBe(true);
    r.remove(A);
    expect(await r.verify(A, 'secret-1')).toBe(false);
    expect(r.verify.remembered()).toBe(0);
    // Provisioned again with the same password: checked again, not answered from the old memory.
    r.set(A, 'secret-1');
    expect(await settleOneCheck(r, r.verify(A, 'secret-1'))).toBe(true);
  });

  it('shares one check between attempts of a gateway that reconnected while it waited', async () => {
    const r = rig();
    r.set(A, 'secret-1');
    const attempts = [r.verify(A, 'secret-1'), r.verify(A, 'secret-1'), r.verify(A, 'secret-1')];
    expect(await settleOneCheck(r, Promise.all(attempts))).toEqual([true, true, true]);
  });

  it('paces the checks: no more run at once than allowed, the rest in turn, and a full line is "busy"', async () => {
    const r = rig({ concurrency: 2, maxWaiting: 3 });
    const macs = Array.from({ length: 5 }, (_, i) => `A4C1380001${String(i).padStart(2, '0')}`);
    for (const mac of macs) r.set(mac, `pw-${mac}`);
    const answers = macs.map((mac) => r.verify(mac, `pw-${mac}`));
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.checks).toHaveLength(2);
    expect(r.verify.pending()).toBe(5);
    r.set(B, 'late');
    await expect(r.verify(B, 'late')).rejects.toBeInstanceOf(VerifierBusyError);
    expect(await settle(r, Promise.all(answers))).toEqual([true, true, true, true, true]);
    expect(r.mostAtOnce()).toBe(2);
    expect(r.verify.pending()).toBe(0);
  });
});

describe('gateway credential cache kept across restarts', () => {
  const key = Buffer.alloc(32, 7);
  const dir = mkdtempSync(join(tmpdir(), 'lumigrid-verified-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a restarted server from the file with the same key, and from nothing with another key or a new password', async () => {
    const file = join(dir, 'gateway-verified.json');
    const hashes = new Map([[A, 'v1:secret-1']]);
    let checks = 0;
    const make = (k: Buffer) =>
      createGatewayVerifier(
        { passwordHash: async (mac) => hashes.get(mac) },
        { key: k, file, verify: async (hash, password) => (checks++, hash === `v1:${password}` || hash === `v2:${password}`) },
      );
    const first = make(key);
    expect(await first(A, 'secret-1')).toBe(true);
    first.flush();
    // Neither the password nor the stored hash is in the file.
    const written = readFileSync(file, 'utf8');
    expect(written).not.toContain('secret-1');
    expect(written).not.toContain('v1:');
    expect(checks).toBe(1);

    expect(await make(key)(A, 'secret-1')).toBe(true);
    expect(checks).toBe(1);
    expect(await make(key)(A, 'wrong')).toBe(false);
    expect(checks).toBe(2);
    // Another key: the file means nothing.
    expect(await make(Buffer.alloc(32, 8))(A, 'secret-1')).toBe(true);
    expect(checks).toBe(3);
    // A new password issued while the server was down: the old one is refused, the new one checked.
    hashes.set(A, 'v2:secret-2');
    const restarted = make(key);
    expect(await restarted(A, 'secret-1')).toBe(false);
    expect(await restarted(A, 'secret-2')).toBe(true);
    expect(checks).toBe(5);
  });
});
