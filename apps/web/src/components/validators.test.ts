import { describe, expect, it } from 'vitest';
import { checkCode, checkConfirmation, checkLoginMail, checkLoginPassword, checkMail, checkNewPassword, checkPhone } from './validators.ts';

describe('form validators (spec section 5)', () => {
  it('e-mail sign-in takes an address or a local account name', () => {
    expect(checkLoginMail('ann@example.com')).toBeUndefined();
    expect(checkLoginMail('admin')).toBeUndefined();
    expect(checkLoginMail('ann@')).toBe('validation.mailFormat');
    expect(checkLoginMail('a b')).toBe('validation.mailFormat');
    expect(checkLoginMail('  ')).toBe('validation.mailRequired');
  });

  it('sign-up insists on a real address and phone number', () => {
    expect(checkMail('admin')).toBe('validation.mailFormat');
    expect(checkMail('ann@example.com')).toBeUndefined();
    expect(checkPhone('abc')).toBe('validation.phoneFormat');
  });

  it('passwords: 8-50 at sign-in, the strong rule for new ones', () => {
    expect(checkLoginPassword('short')).toBe('validation.passwordLoginLength');
    expect(checkLoginPassword('x'.repeat(51))).toBe('validation.passwordLoginLength');
    expect(checkLoginPassword('weakbutlong')).toBeUndefined();
    expect(checkNewPassword('weakbutlong')).toBeDefined();
    expect(checkNewPassword('Lights-On-2026')).toBeUndefined();
  });

  it('codes and confirmations', () => {
    expect(checkCode('12345')).toBeDefined();
    expect(checkCode('123456')).toBeUndefined();
    expect(checkConfirmation('Lights-On-2026')('Lights-On-2027')).toBeDefined();
    expect(checkConfirmation('Lights-On-2026')('Lights-On-2026')).toBeUndefined();
  });
});
