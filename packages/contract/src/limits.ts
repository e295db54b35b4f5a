/** Limits of spec sections 5 and 9 that more than one part of the product checks. */
export const LIMITS = {
  /** Software version shown in the footer (spec section 1). */
  version: '2.7.6',
  requestTimeoutMs: 30_000,
  password: { min: 8, max: 32, loginMax: 50 },
  mail: { max: 50 },
  /** Weighted lengths: a Chinese character counts as 3, anything else as 1 (spec section 5). */
  personName: { max: 50 },
  company: { max: 50 },
  remarks: { max: 500 },
  verificationCode: {
    length: 6,
    validMs: 5 * 60_000,
    /** Minimum time between two codes to the same address ("sent too fast", 240002). */
    resendMs: 60_000,
    /** Codes a single address may receive per day (250008). */
    dailyMax: 10,
    /** Wrong guesses before a code is spent. */
    maxAttempts: 5,
  },
  captcha: { validMs: 5 * 60_000, length: 4 },
  /** Codes one address may ask for (send_code), whatever the targets, before 429 (100003). */
  sendCode: { perAddress: 10, windowMs: 60 * 60_000 },
  /** Account-name checks one address may make (check_account_exist) before 429. */
  accountLookup: { perAddress: 30, windowMs: 15 * 60_000 },
  signIn: {
    /** Failed sign-ins to one account from one address, then a pause (429 with Retry-After). */
    perAccountAndAddress: 5,
    /** Failed sign-ins per address, then a pause. */
    perAddress: 20,
    windowMs: 15 * 60_000,
    /**
     * Failed sign-ins to one account from all addresses together. Past `captchaAfter`, a device that never
     * signed in to the account must solve the captcha (100021) and wait `firstDelayMs` after a failure,
     * doubling with each further one up to `maxDelayMs` (429). Failures are forgotten `forgetMs` after the last.
     */
    account: { captchaAfter: 10, firstDelayMs: 1000, maxDelayMs: 15 * 60_000, forgetMs: 60 * 60_000 },
    /** A device that signed in to an account skips the account's captcha and delay this long after its last sign-in. */
    knownDevice: { keptMs: 90 * 24 * 60 * 60_000, perUser: 10 },
  },
  session: {
    /** A token unused for this long has expired. */
    idleMs: 2 * 60 * 60_000,
    /** Idle expiry when the user ticked "remember me". */
    rememberIdleMs: 7 * 24 * 60 * 60_000,
    /** No token lives longer than this, however busy. */
    absoluteMs: 30 * 24 * 60 * 60_000,
  },
} as const;

/** A size limit as people read it: "5 MB", "800 KB". */
export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}
