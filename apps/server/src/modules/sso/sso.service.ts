import { createHash } from 'node:crypto';
import {
  LIMITS,
  OPERATE_AUTH,
  SSO_CALLBACK_PATH,
  SSO_DEFAULT_AUTHORITIES,
  SSO_LIMITS,
  USER_AUTH,
  ssoDomainOf,
  weightedLength,
  type LoginResult,
  type SsoDefaultAuthority,
  type SsoFinishBody,
  type SsoSettings,
  type SsoSettingsBody,
  type SsoStartBody,
  type SsoStarted,
} from '@lumigrid/contract';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomPassword } from '../../lib/password.ts';
import type { UserRow } from '../accounts/accounts.repo.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { assertPublicUrl } from '../webhooks/webhook-address.ts';
import type { OidcClient } from './oidc-client.ts';
import type { SsoRepo, SsoSettingsRow } from './sso.repo.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const isDefaultAuthority = (n: number): n is SsoDefaultAuthority => (SSO_DEFAULT_AUTHORITIES as readonly number[]).includes(n);

/** Single sign-on with OpenID Connect: the owner's settings, and the sign-in of the account's users through the provider. */
export function createSsoService(deps: {
  repo: SsoRepo;
  oidc: OidcClient;
  accounts: Pick<AccountsService, 'findById' | 'findByLogin' | 'createAccount'>;
  sessions: Pick<AuthService, 'openSession'>;
  config: Pick<Config, 'mode' | 'publicUrl'>;
  clock: Clock;
}) {
  const { repo, oidc, accounts, sessions, config, clock } = deps;
  const redirectUri = `${config.publicUrl}${SSO_CALLBACK_PATH}`;

  function mapSettings(row: SsoSettingsRow | undefined): SsoSettings {
    return {
      configured: row !== undefined,
      enabled: row?.enabled ?? false,
      issuer: row?.issuer ?? '',
      clientId: row?.clientId ?? '',
      clientSecretSet: row !== undefined,
      claim: row?.claim ?? 'email',
      domain: row?.domain ?? '',
      defaultOperateAuth: row && isDefaultAuthority(row.defaultOperateAuth) ? row.defaultOperateAuth : OPERATE_AUTH.viewOnly,
      localSignInOff: row?.localSignInOff ?? false,
      redirectUri,
    };
  }

  /**
   * Plain http and addresses inside the service's own network (server-side request forgery) are refused in SaaS
   * mode; an on-premise server, whose provider is often on its own network, allows both. Checked before every
   * call to the provider, as its name may resolve elsewhere since it was saved.
   */
  async function assertIssuerAllowed(issuer: string) {
    if (config.mode !== 'saas') return;
    const url = new URL(issuer);
    if (url.protocol !== 'https:') throw new AppError(103008);
    await assertPublicUrl(url, 103010);
  }

  /** The provider's configuration, or 103005 when it cannot be read. */
  async function reachProvider(row: Pick<SsoSettingsRow, 'issuer' | 'clientId' | 'clientSecret'>) {
    await assertIssuerAllowed(row.issuer);
    await oidc.configuration(row).catch(() => {
      throw new AppError(103005);
    });
  }

  /** A sign-in name not taken yet: the claim's value when it fits and is free, else a made-up one. */
  async function freeAccountName(value: string): Promise<string> {
    if (weightedLength(value) <= LIMITS.personName.max && !(await accounts.findByLogin(value))) return value;
    return `sso-${randomBytes(6).toString('hex')}`;
  }

  /** The sub-account a claim value names: linked before, or an existing sub-account of the account by that sign-in name or mail. */
  async function findSubAccount(tenantId: bigint, value: string): Promise<UserRow | undefined> {
    const linked = await repo.linkedUser({ tenantId, claimValue: value });
    const row = linked !== undefined ? await accounts.findById(linked) : await accounts.findByLogin(value);
    return row && row.parentId === tenantId && row.userAuth === USER_AUTH.subAccount ? row : undefined;
  }

  async function createSubAccount(settings: SsoSettingsRow, value: string, claims: Record<string, unknown>): Promise<UserRow> {
    const account = await freeAccountName(value);
    const mail = typeof claims.email === 'string' && claims.email_verified !== false ? claims.email.toLowerCase() : undefined;
    const mailFree = mail !== undefined && mail.length <= 100 && !(await accounts.findByLogin(mail));
    const name =
      typeof claims.name === 'string' && claims.name.trim() && weightedLength(claims.name.trim()) <= LIMITS.personName.max
        ? claims.name.trim()
        : account;
    return accounts.createAccount(
      { account, name, password: randomPassword(), ...(mailFree ? { mail } : {}) },
      { userAuth: USER_AUTH.subAccount, operateAuth: settings.defaultOperateAuth, parentId: settings.tenantId },
    );
  }

  return {
    async settings(auth: AuthContext): Promise<SsoSettings> {
      return mapSettings(await repo.settingsOf({ tenantId: auth.tenantId }));
    },

    /** Saves the owner's settings once the provider answers its discovery (when switched on). */
    async saveSettings(auth: AuthContext, body: SsoSettingsBody): Promise<SsoSettings> {
      const before = await repo.settingsOf({ tenantId: auth.tenantId });
      const clientSecret = body.clientSecret ?? before?.clientSecret;
      if (!clientSecret) throw new AppError(103009);
      const domain = ssoDomainOf(body.domain);
      if (!domain) throw new AppError(100001, 'domain');
      const row: SsoSettingsRow = {
        tenantId: auth.tenantId,
        enabled: body.enabled,
        issuer: body.issuer.trim(),
        clientId: body.clientId.trim(),
        clientSecret,
        claim: body.claim,
        domain,
        defaultOperateAuth: body.defaultOperateAuth,
        localSignInOff: body.localSignInOff,
        updatedAt: clock.now(),
      };
      await assertIssuerAllowed(row.issuer);
      if (row.enabled) await reachProvider(row);
      if ((await repo.saveSettings(row)) === 'domainTaken') throw new AppError(103007);
      return mapSettings(row);
    },

    /** Whether a user may sign in with a password: not a sub-account of an account that switched it off. */
    async passwordSignInOff(user: Pick<UserRow, 'parentId'>): Promise<boolean> {
      if (user.parentId === null) return false;
      const settings = await repo.settingsOf({ tenantId: user.parentId });
      return settings?.enabled === true && settings.localSignInOff;
    },

    /** Starts a sign-in at the provider of a domain for the browser `browser` names; answers where the browser goes. */
    async start(body: SsoStartBody, browser: string): Promise<SsoStarted> {
      const domain = ssoDomainOf(body.domain);
      const settings = domain === undefined ? undefined : await repo.settingsByDomainAnyTenant(domain);
      if (!settings?.enabled) throw new AppError(103001);
      await reachProvider(settings);
      const now = clock.now();
      await repo.sweepFlowsAnyTenant({ now });
      const checks = oidc.randomChecks();
      await repo.insertFlow({
        stateHash: sha256(checks.state),
        tenantId: settings.tenantId,
        browserHash: sha256(browser),
        codeVerifier: checks.pkceCodeVerifier,
        nonce: checks.nonce,
        expiresAt: new Date(now.getTime() + SSO_LIMITS.flowValidMs),
      });
      return { url: await oidc.authorizationUrl(settings, { redirectUri, ...checks }) };
    },

    /**
     * Finishes a sign-in the provider sent back: the state must be one this browser started and not used, the
     * ID token must verify; the claim's value names the sub-account, made with the default authority the first time.
     */
    async finish(body: SsoFinishBody, browser: string | undefined): Promise<LoginResult> {
      const flow = await repo.takeFlowAnyTenant(sha256(body.state));
      if (!flow || browser === undefined || flow.browserHash !== sha256(browser) || flow.expiresAt <= clock.now())
        throw new AppError(103002);
      const settings = await repo.settingsOf({ tenantId: flow.tenantId });
      if (!settings?.enabled) throw new AppError(103001);
      await assertIssuerAllowed(settings.issuer);
      const callback = { code: body.code, state: body.state, ...(body.iss === undefined ? {} : { iss: body.iss }) };
      const claims = await oidc
        .exchange(settings, callback, {
          redirectUri,
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: body.state,
          expectedNonce: flow.nonce,
          claim: settings.claim,
        })
        .catch(() => {
          throw new AppError(103003);
        });
      const raw = claims[settings.claim];
      // An address the provider says it has not verified names nobody: anyone could have typed it there.
      const unverifiedMail = settings.claim === 'email' && claims.email_verified === false;
      if ((typeof raw !== 'string' && typeof raw !== 'number') || String(raw).trim() === '' || unverifiedMail) throw new AppError(103006);
      const value = settings.claim === 'email' ? String(raw).trim().toLowerCase() : String(raw).trim();
      const existing = await findSubAccount(settings.tenantId, value);
      const user = existing ?? (await createSubAccount(settings, value, claims));
      const linked = await repo.link({ tenantId: settings.tenantId, claimValue: value, userId: user.id, now: clock.now() });
      const row = linked === user.id ? user : await accounts.findById(linked);
      if (!row) throw new AppError(250020);
      return sessions.openSession(row);
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
