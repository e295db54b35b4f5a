import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, identityId, instant, refersTo } from './columns.ts';
import { users } from './users.ts';

/** Signed-in sessions; only the SHA-256 of a token is kept, so a database leak yields no usable token. */
export const sessions = pgTable(
  'sessions',
  {
    id: identityId(),
    userId: refersTo('user_id', () => users.id, 'cascade'),
    tokenHash: text('token_hash').notNull().unique(),
    idleMs: integer('idle_ms').notNull(),
    createdAt: createdAt(),
    lastSeenAt: instant('last_seen_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
    revokedAt: instant('revoked_at'),
    /** Why the server ended the session (250019 permissions changed, ...): what its next call answers. Null: 250004. */
    endedCode: integer('ended_code'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Verification codes sent by mail or SMS; only a hash of the code is kept. */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: identityId(),
    target: text('target').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [index('verification_codes_target_idx').on(t.target, t.createdAt)],
);

/** Graphic captchas awaiting their one answer. */
export const captchas = pgTable('captchas', {
  id: text('id').primaryKey(),
  answerHash: text('answer_hash').notNull(),
  expiresAt: instant('expires_at').notNull(),
});

/** Failed sign-ins per key (an account from an address, or an address) in the current window, for throttling. */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    key: text('key').primaryKey(),
    windowStart: instant('window_start').notNull(),
    failures: integer('failures').notNull(),
  },
  // Windows that ended are swept by this index, so guesses at made-up names cannot grow the table for ever.
  (t) => [index('sign_in_failures_window_start_idx').on(t.windowStart)],
);

/**
 * Failed sign-ins to one account name from all addresses together (any name typed, known or not, so the
 * answer tells nothing about which accounts exist). Rows are swept once forgotten.
 */
export const signInAccountHolds = pgTable(
  'sign_in_account_holds',
  {
    /** The account name as typed, trimmed and lower-cased. */
    login: text('login').primaryKey(),
    failures: integer('failures').notNull(),
    lastAttemptAt: instant('last_attempt_at').notNull(),
    /** A device not known to the account may not try again before this. */
    notBefore: instant('not_before').notNull(),
  },
  (t) => [index('sign_in_account_holds_last_attempt_idx').on(t.lastAttemptAt)],
);

/** Devices (browsers) that signed in to a user, by the SHA-256 of the id in their `lg_device` cookie. */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: refersTo('user_id', () => users.id, 'cascade'),
    deviceHash: text('device_hash').notNull(),
    lastSignInAt: instant('last_sign_in_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] }), index('known_devices_last_sign_in_idx').on(t.lastSignInAt)],
);
