import { describe, expect, it } from 'vitest';
import { derivePassword } from './credentials.ts';

describe('derived gateway passwords', () => {
  it('are HMAC-SHA256 of the MAC under the secret, 32 base64url characters, and differ per MAC and secret', () => {
    // Pinned: gateways flashed with a secret compute this same value, so it must never change.
    expect(derivePassword('s3cret', 'A4C138000001')).toBe('aEUwuzLh6fTyAQ3Fbb4u81eroWcPZtx3');
    expect(derivePassword('s3cret', 'A4C138000002')).not.toBe(derivePassword('s3cret', 'A4C138000001'));
    expect(derivePassword('other', 'A4C138000001')).not.toBe(derivePassword('s3cret', 'A4C138000001'));
  });
});
