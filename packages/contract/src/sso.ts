import { Type, type Static } from 'typebox';
import { OPERATE_AUTH } from './roles.ts';

/**
 * Single sign-on with OpenID Connect (docs/api.md "Single sign-on"): an account owner names the identity
 * provider of the account and the e-mail domain its users sign in with; they sign in through the provider
 * (authorization code with PKCE) and become sub-accounts of the account.
 */

export const SSO_LIMITS = {
  issuer: { max: 500 },
  clientId: { max: 200 },
  clientSecret: { max: 500 },
  claim: { max: 100 },
  domain: { max: 253 },
  /** How long a started sign-in may take at the provider before its state is forgotten (103002 after). */
  flowValidMs: 10 * 60_000,
  /** Starts and finishes one client address may make a minute, per server node (100003 past it). */
  callsPerAddressPerMinute: 30,
} as const;

/** The authorities a sub-account made by single sign-on may start with: never an owner's. */
export const SSO_DEFAULT_AUTHORITIES = [OPERATE_AUTH.editable, OPERATE_AUTH.controllable, OPERATE_AUTH.viewOnly] as const;
export type SsoDefaultAuthority = (typeof SSO_DEFAULT_AUTHORITIES)[number];

/** Where the provider sends the browser back: a page of the web app, which hands the answer to `finish`. */
export const SSO_CALLBACK_PATH = '/user/sso/callback';

/** The e-mail domain of an address, or the domain itself, lower-cased; undefined for anything else. */
export function ssoDomainOf(text: string): string | undefined {
  const domain = text.trim().toLowerCase().split('@').pop() ?? '';
  return /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain) ? domain : undefined;
}

const DomainSchema = Type.String({
  minLength: 3,
  maxLength: SSO_LIMITS.domain.max,
  pattern: '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$',
  description: 'The e-mail domain the account’s users sign in with (example.com); one account per domain',
});
const AuthoritySchema = Type.Unsafe<SsoDefaultAuthority>({
  type: 'integer',
  enum: [...SSO_DEFAULT_AUTHORITIES],
  description: 'operate_auth of the sub-accounts single sign-on creates: 2 editable, 3 controllable, 4 view only',
});
const ClaimSchema = Type.String({
  minLength: 1,
  maxLength: SSO_LIMITS.claim.max,
  pattern: '^[A-Za-z0-9_:.-]+$',
  description: 'The ID token claim whose value names the user (email, preferred_username, sub, ...)',
});

/** The settings as the owner reads them: never the client secret, only whether one is kept. */
export const SsoSettingsSchema = Type.Object({
  /** False until the owner first saves them. */
  configured: Type.Boolean(),
  enabled: Type.Boolean({ description: 'Whether the account’s users may sign in through the provider' }),
  issuer: Type.String({ description: 'The issuer URL; its /.well-known/openid-configuration is read' }),
  clientId: Type.String(),
  clientSecretSet: Type.Boolean({ description: 'Whether a client secret is kept; the secret itself is never answered' }),
  claim: Type.String(),
  domain: Type.String(),
  defaultOperateAuth: AuthoritySchema,
  localSignInOff: Type.Boolean({
    description: 'Sub-accounts of the account may not sign in with a password (103004); the owner always may',
  }),
  redirectUri: Type.String({ description: 'The redirect URI to register at the provider' }),
});
export type SsoSettings = Static<typeof SsoSettingsSchema>;

export const SsoSettingsBodySchema = Type.Object({
  enabled: Type.Boolean(),
  issuer: Type.String({ minLength: 1, maxLength: SSO_LIMITS.issuer.max, format: 'uri', description: 'https (103008) in SaaS mode' }),
  clientId: Type.String({ minLength: 1, maxLength: SSO_LIMITS.clientId.max, pattern: '\\S' }),
  clientSecret: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: SSO_LIMITS.clientSecret.max,
      description: 'Absent keeps the secret kept before; needed the first time (103009)',
    }),
  ),
  claim: ClaimSchema,
  domain: DomainSchema,
  defaultOperateAuth: AuthoritySchema,
  localSignInOff: Type.Boolean(),
});
export type SsoSettingsBody = Static<typeof SsoSettingsBodySchema>;

export const SsoStartBodySchema = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 320, description: 'The e-mail domain, or a whole e-mail address of it' }),
});
export type SsoStartBody = Static<typeof SsoStartBodySchema>;

export const SsoStartedSchema = Type.Object({
  url: Type.String({ description: 'The provider’s authorization URL the browser goes to' }),
});
export type SsoStarted = Static<typeof SsoStartedSchema>;

/** What the provider put in the callback address's query. */
export const SsoFinishBodySchema = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 2048 }),
  state: Type.String({ minLength: 1, maxLength: 512 }),
  iss: Type.Optional(Type.String({ maxLength: SSO_LIMITS.issuer.max, description: 'The issuer, when the provider names it (RFC 9207)' })),
});
export type SsoFinishBody = Static<typeof SsoFinishBodySchema>;
