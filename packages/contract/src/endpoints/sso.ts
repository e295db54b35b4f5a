import { endpoint } from '../endpoint.ts';
import { LoginResultSchema } from '../auth.ts';
import { SsoFinishBodySchema, SsoSettingsBodySchema, SsoSettingsSchema, SsoStartBodySchema, SsoStartedSchema } from '../sso.ts';

/** Single sign-on with OpenID Connect (docs/api.md "Single sign-on"). */
export const ssoEndpoints = {
  settings: endpoint({
    method: 'GET',
    path: '/api1/sso/v1/settings',
    tags: ['sso'],
    summary: 'The single sign-on settings of the account; never the client secret',
    access: 'accountOwner',
    sessionOnly: true,
    response: SsoSettingsSchema,
  }),
  saveSettings: endpoint({
    method: 'POST',
    path: '/api1/sso/v1/settings/save',
    tags: ['sso'],
    summary: 'Save the single sign-on settings of the account',
    description:
      'The issuer’s discovery document is read before anything is saved (103005 when it cannot be). Absent `clientSecret` keeps the one kept before.',
    access: 'accountOwner',
    sessionOnly: true,
    body: SsoSettingsBodySchema,
    response: SsoSettingsSchema,
    errors: [103005, 103007, 103008, 103009],
  }),
  start: endpoint({
    method: 'POST',
    path: '/api1/user/v1/sso/start',
    tags: ['auth'],
    summary: 'Start a sign-in through the identity provider of a domain: answers the URL the browser goes to',
    description:
      'Keeps the state, nonce and PKCE verifier on the server for 10 minutes and sets the HttpOnly cookie `lg_sso`, which ' +
      'binds the sign-in to this browser. The provider sends the browser back to the web app’s /user/sso/callback.',
    access: 'public',
    body: SsoStartBodySchema,
    response: SsoStartedSchema,
    errors: [103001, 103005],
  }),
  finish: endpoint({
    method: 'POST',
    path: '/api1/user/v1/sso/finish',
    tags: ['auth'],
    summary: 'Finish a sign-in through the identity provider: a session as the password sign-in answers',
    description:
      'Exchanges the code (with the PKCE verifier), checks the ID token (signature, issuer, audience, expiry, nonce), finds the ' +
      'sub-account the configured claim names or creates it with the default authority. A state unknown, used, expired or ' +
      'started in another browser answers 103002; an answer that does not verify 103003.',
    access: 'public',
    body: SsoFinishBodySchema,
    response: LoginResultSchema,
    errors: [103002, 103003, 103006, 250018, 250020],
  }),
};
