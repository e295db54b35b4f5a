import { isMail, isPhone, LIMITS, passwordProblem, weightedLength } from '@lumigrid/contract/browser';

/** Catalogue keys of the validation texts (spec section 5). */
export type ValidationKey =
  | 'validation.mailRequired'
  | 'validation.mailFormat'
  | 'validation.phoneRequired'
  | 'validation.phoneFormat'
  | 'validation.accountRequired'
  | 'validation.passwordRequired'
  | 'validation.passwordLoginLength'
  | 'validation.passwordLength'
  | 'validation.passwordSpaces'
  | 'validation.passwordWeak'
  | 'validation.confirmRequired'
  | 'validation.confirmMismatch'
  | 'validation.codeRequired'
  | 'validation.codeFormat'
  | 'validation.captchaRequired'
  | 'validation.tooLong'
  | 'validation.oldPasswordRequired'
  | 'validation.sameAsOld';

/** Each check returns the problem's catalogue key, or undefined when the value is fine. */
export type Check = (value: string) => ValidationKey | undefined;

export const checkMail: Check = (value) => {
  if (!value) return 'validation.mailRequired';
  return isMail(value) ? undefined : 'validation.mailFormat';
};

export const checkPhone: Check = (value) => {
  if (!value) return 'validation.phoneRequired';
  return isPhone(value) ? undefined : 'validation.phoneFormat';
};

/**
 * The e-mail sign-in field also takes a local account name without '@' (the platform administrator's
 * `admin` in SaaS mode); anything with '@' must be a valid address.
 */
export const checkLoginMail: Check = (value) => {
  const trimmed = value.trim();
  if (!trimmed) return 'validation.mailRequired';
  if (trimmed.includes('@')) return isMail(trimmed) ? undefined : 'validation.mailFormat';
  return /^[\w.-]{2,50}$/.test(trimmed) ? undefined : 'validation.mailFormat';
};

export const checkAccount: Check = (value) => (value.trim() ? undefined : 'validation.accountRequired');

/** At sign-in only the length is checked: 8-50 (spec section 5); old accounts may predate the strong rule. */
export const checkLoginPassword: Check = (value) => {
  if (!value) return 'validation.passwordRequired';
  if (value.length < LIMITS.password.min || value.length > LIMITS.password.loginMax) return 'validation.passwordLoginLength';
  return undefined;
};

/** A new password follows the contract's passwordProblem(): 8-32, upper, lower, digit, no spaces. */
export const checkNewPassword: Check = (value) => {
  if (!value) return 'validation.passwordRequired';
  const problem = passwordProblem(value);
  if (problem === 'spaces') return 'validation.passwordSpaces';
  if (problem === 'length') return 'validation.passwordLength';
  if (problem === 'weak') return 'validation.passwordWeak';
  return undefined;
};

export function checkConfirmation(password: string | undefined): Check {
  return (value) => {
    if (!value) return 'validation.confirmRequired';
    return value === password ? undefined : 'validation.confirmMismatch';
  };
}

export function checkDiffersFrom(oldPassword: string | undefined): Check {
  return (value) => (value && oldPassword && value === oldPassword ? 'validation.sameAsOld' : undefined);
}

export const checkCode: Check = (value) => {
  if (!value) return 'validation.codeRequired';
  return new RegExp(`^[0-9]{${LIMITS.verificationCode.length}}$`).test(value) ? undefined : 'validation.codeFormat';
};

export const checkCaptcha: Check = (value) => (value.trim() ? undefined : 'validation.captchaRequired');

/** An optional field: the check runs only when something was typed. */
export function ifGiven(check: Check): Check {
  return (value) => (value.trim() ? check(value.trim()) : undefined);
}

/** Optional text with a weighted maximum (a Chinese character counts as 3). */
export function checkWeightedMax(max: number): Check {
  return (value) => (value && weightedLength(value) > max ? 'validation.tooLong' : undefined);
}

/** The seconds left on a countdown ending at `until`, never negative. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}
