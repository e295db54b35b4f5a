import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

describe('passwords', () => {
  it('verifies a hash of the production cost and one of the tests’ cost alike, and refuses a wrong password', async () => {
    const production = await hash('Secret-Pass1', { memoryCost: 19_456, timeCost: 2 });
    expect(production).toContain('m=19456,t=2');
    const here = await hashPassword('Secret-Pass1');
    for (const stored of [production, here]) {
      expect(await verifyPassword(stored, 'Secret-Pass1')).toBe(true);
      expect(await verifyPassword(stored, 'Secret-Pass2')).toBe(false);
    }
  });

  it('answers false for a stored value that is no hash, instead of throwing', async () => {
    expect(await verifyPassword('not a hash', 'Secret-Pass1')).toBe(false);
  });
});
