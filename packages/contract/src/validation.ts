export { unsafeTextIn } from '@lumigrid/protocol';
import type { ErrorCode } from './errors.ts';
import { LIMITS } from './limits.ts';

/** Length as spec section 5 counts it: a Chinese (CJK) character counts as 3, anything else as 1. */
export function weightedLength(text: string): number {
  let n = 0;
  for (const ch of text) n += /[\u3400-\u9fff\uf900-\ufaff\u{20000}-\u{2fa1f}]/u.test(ch) ? 3 : 1;
  return n;
}

/** The problem with a name's length in characters after trimming: 100001 below `min` (empty), 100011 above `max`. */
export function nameLengthProblem(name: string, limits: { min: number; max: number }): ErrorCode | undefined {
  const length = [...name.trim()].length;
  if (length < limits.min) return 100001;
  if (length > limits.max) return 100011;
  return undefined;
}

export const MAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
/** An optional +, then 6-15 digits: covers mainland mobiles (11 digits) and international numbers. */
export const PHONE_PATTERN = '^\\+?[0-9]{6,15}$';

export function isMail(value: string): boolean {
  return value.length <= LIMITS.mail.max && new RegExp(MAIL_PATTERN).test(value);
}

export function isPhone(value: string): boolean {
  return new RegExp(PHONE_PATTERN).test(value);
}

export type PasswordProblem = 'length' | 'spaces' | 'weak';

/**
 * The rule for new passwords. Spec section 5 names 8-50 at sign-up and a stronger 6-32 with upper case,
 * lower case and a digit; a new password must satisfy both, so 8-32 with all three and no spaces.
 */
export function passwordProblem(password: string): PasswordProblem | undefined {
  if (/\s/.test(password)) return 'spaces';
  if (password.length < LIMITS.password.min || password.length > LIMITS.password.max) return 'length';
  if (!/[a-z]/.test(password) || !/[A-Z]/.test(password) || !/[0-9]/.test(password)) return 'weak';
  return undefined;
}

/** Phone numbers are displayed with all but the first three and last four digits hidden. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  if (phone.length <= 7) return phone;
  return `${phone.slice(0, 3)}${'*'.repeat(phone.length - 7)}${phone.slice(-4)}`;
}
