import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';

/** How long a provider's discovery document is reused before it is read again. */
const DISCOVERY_KEPT_MS = 10 * 60_000;
/** A provider that does not answer within this is treated as unreachable. */
const PROVIDER_TIMEOUT_S = 10;

/** What identifies the client at a provider. */
export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** The checks a callback's answer must pass: the values the sign-in was started with. */
export interface OidcChecks {
  redirectUri: string;
  pkceCodeVerifier: string;
  expectedState: string;
  expectedNonce: string;
  /** The claim that names the user: asked of userinfo when the ID token lacks it. */
  claim: string;
}

/**
 * The OpenID Connect client side (openid-client): discovery, the authorization URL with PKCE, and the code
 * exchange with the ID token's checks. Discovery is kept per issuer and client for a few minutes.
 */
export function createOidcClient(options: { now: () => number }) {
  const kept = new Map<string, { until: number; configuration: Promise<oidc.Configuration> }>();
  const keyOf = (s: OidcClientSettings) => createHash('sha256').update(`${s.issuer}\n${s.clientId}\n${s.clientSecret}`).digest('hex');

  /** The provider's configuration for a client; rejects when its discovery document cannot be read or does not match. */
  function configuration(settings: OidcClientSettings): Promise<oidc.Configuration> {
    const key = keyOf(settings);
    const hit = kept.get(key);
    if (hit && hit.until > options.now()) return hit.configuration;
    const issuer = new URL(settings.issuer);
    const configuration = oidc.discovery(issuer, settings.clientId, undefined, oidc.ClientSecretBasic(settings.clientSecret), {
      timeout: PROVIDER_TIMEOUT_S,
      // Plain http reaches only issuers the service let through (server mode, docs/decisions.md).
      ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    kept.set(key, { until: options.now() + DISCOVERY_KEPT_MS, configuration });
    configuration.catch(() => kept.delete(key));
    return configuration;
  }

  return {
    configuration,

    /** Fresh random values for one sign-in: state, nonce and the PKCE verifier. */
    randomChecks(): { state: string; nonce: string; pkceCodeVerifier: string } {
      return { state: oidc.randomState(), nonce: oidc.randomNonce(), pkceCodeVerifier: oidc.randomPKCECodeVerifier() };
    },

    async authorizationUrl(
      settings: OidcClientSettings,
      p: { redirectUri: string; state: string; nonce: string; pkceCodeVerifier: string },
    ): Promise<string> {
      const config = await configuration(settings);
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: p.redirectUri,
        scope: 'openid email profile',
        state: p.state,
        nonce: p.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(p.pkceCodeVerifier),
        code_challenge_method: 'S256',
      }).href;
    },

    /**
     * Exchanges the code from the callback and checks the ID token (signature, issuer, audience, times, nonce);
     * answers its claims, with userinfo's when it lacks the wanted one. Rejects on any mismatch.
     */
    async exchange(settings: OidcClientSettings, callback: Record<string, string>, checks: OidcChecks): Promise<Record<string, unknown>> {
      const config = await configuration(settings);
      const currentUrl = new URL(checks.redirectUri);
      for (const [name, value] of Object.entries(callback)) currentUrl.searchParams.set(name, value);
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: checks.pkceCodeVerifier,
        expectedState: checks.expectedState,
        expectedNonce: checks.expectedNonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      // Providers that keep the ID token small (oidc-provider by default) answer the other claims from userinfo.
      if (claims[checks.claim] !== undefined || !config.serverMetadata().userinfo_endpoint) return { ...claims };
      const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      return { ...userInfo, ...claims };
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
