import { randomInt } from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';

/** argon2id with the library's defaults (19 MiB, 2 passes), OWASP's recommended minimum. */
const cost: Options = { memoryCost: 19_456, timeCost: 2 };

/**
 * A cheap cost for a test process, which hashes thousands of passwords: at OWASP's cost that was the biggest
 * part of the suites' CPU. A hash carries its own cost, so hashes of either cost verify as before.
 */
export function useCheapPasswordHashingForTests(): void {
  cost.memoryCost = 256;
  cost.timeCost = 1;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, cost);
}
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A fresh password that satisfies the new-password rule: 16 characters, with each class present. */
export function randomPassword(): string {
  const lower = 'abcdefghijkmnopqrstuvwxyz';
  const upper = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const all = lower + upper + digits;
  const pick = (set: string) => set[randomInt(set.length)]!;
  const chars = [pick(lower), pick(upper), pick(digits), ...Array.from({ length: 13 }, () => pick(all))];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
