import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERATE_AUTH, type SsoSettingsBody } from '@lumigrid/contract';
import Provider from 'oidc-provider';

/** A person the test provider knows: the password its login form checks and the claims it answers. */
export interface ProviderUser {
  password: string;
  email: string;
  name: string;
  emailVerified?: boolean;
}

/** A real OpenID provider (oidc-provider) on a free loopback port, with one confidential client. */
export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Goes through the provider as a browser would: the authorization URL, its login form, back to the redirect URI. */
  signIn(authorizationUrl: string, login: string, password: string): Promise<URL>;
  close(): Promise<void>;
}

/** An account's single sign-on through this provider for people at acme.test, who get control authority. */
export function ssoSettingsFor(idp: TestIdentityProvider, change: Partial<SsoSettingsBody> = {}): SsoSettingsBody {
  return {
    enabled: true,
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    claim: 'email',
    domain: 'acme.test',
    defaultOperateAuth: OPERATE_AUTH.controllable,
    localSignInOff: false,
    ...change,
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The login form: a page of its own, so a browser loads nothing from elsewhere (the built-in one imports web fonts). */
function loginPage(uid: string, failed: boolean): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head><body>
<h1>Test identity provider</h1>${failed ? '<p role="alert">Wrong login or password</p>' : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Login <input name="login" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in at the provider</button></form></body></html>`;
}

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Starts the provider; `redirectUris` are the client's registered callbacks. */
export async function startIdentityProvider(options: {
  redirectUris: string[];
  users: Record<string, ProviderUser>;
}): Promise<TestIdentityProvider> {
  const clientId = 'lumigrid-test';
  const clientSecret = randomBytes(24).toString('base64url');
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void handle(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: (_ctx, sub) => {
      const user = options.users[sub];
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: user.email, email_verified: user.emailVerified ?? true, name: user.name }),
      };
    },
    // The person consents by signing in: a company's provider does not ask its staff again for its own apps.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const interaction = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/.exec(new URL(request.url ?? '/', issuer).pathname);
    if (!interaction) return provider.callback()(request, response);
    const details = await provider.interactionDetails(request, response);
    if (details.uid !== interaction[1]) throw new Error('interaction of another browser');
    if (request.method === 'GET') {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      return response.end(loginPage(details.uid, false));
    }
    const form = await formBody(request);
    const login = form.get('login') ?? '';
    if (options.users[login]?.password !== form.get('password')) {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      return response.end(loginPage(details.uid, true));
    }
    await provider.interactionFinished(request, response, { login: { accountId: login } }, { mergeWithLastSubmission: false });
  }

  return {
    issuer,
    clientId,
    clientSecret,
    async signIn(authorizationUrl, login, password) {
      const jar = new Map<string, string>();
      const send = async (url: string, init: RequestInit = {}) => {
        const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
        const answer = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie } });
        for (const line of answer.headers.getSetCookie()) {
          const pair = line.split(';', 1)[0]!;
          jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
        }
        return answer;
      };
      let url = authorizationUrl;
      for (let hop = 0; hop < 10; hop++) {
        if (!url.startsWith(issuer)) return new URL(url);
        const uid = /^\/interaction\/([A-Za-z0-9_-]+)$/.exec(new URL(url).pathname)?.[1];
        const answer = uid
          ? await send(`${issuer}/interaction/${uid}/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({ login, password }).toString(),
            })
          : await send(url);
        const location = answer.headers.get('location');
        if (!location) throw new Error(`${url} answered ${answer.status} without sending the browser on: ${await answer.text()}`);
        url = new URL(location, url).href;
      }
      throw new Error('the provider kept redirecting');
    },
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
