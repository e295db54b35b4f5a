import { randomBytes } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import { SSO_LIMITS, ssoEndpoints as E } from '@lumigrid/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { cookieValue } from '../auth/device-cookie.ts';
import type { SsoService } from './sso.service.ts';

/** The cookie that binds a sign-in at the provider to the browser that started it (256 random bits). */
const BROWSER_COOKIE = 'lg_sso';
const BROWSER_ID = /^[A-Za-z0-9_-]{43}$/;
/** Both calls of the sign-in, and nothing else, receive the cookie. */
const COOKIE_PATH = '/api1/user/v1/sso';

/**
 * Sends the browser's sign-in binding back for the provider's time. Lax, not Strict: some browsers count a
 * page reached through a cross-site redirect as cross-site for a while, and only our own calls read it.
 */
function setBrowserCookie(request: FastifyRequest, reply: FastifyReply, browser: string): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  const maxAge = Math.floor(SSO_LIMITS.flowValidMs / 1000);
  reply.header('set-cookie', `${BROWSER_COOKIE}=${browser}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`);
}

/** The single sign-on calls of the endpoint table (contract endpoints/sso.ts). */
export function registerSsoRoutes(route: RouteOf, deps: { sso: SsoService }) {
  const { sso } = deps;

  route(E.settings, ({ auth }) => sso.settings(auth));

  route(E.saveSettings, ({ auth, body }) => sso.saveSettings(auth, body));

  // Public calls that write a row and reach out to a provider: limited per client address, in a scope of their own.
  void route.scope(async (scopedRoute, scope) => {
    await scope.register(fastifyRateLimit, {
      max: SSO_LIMITS.callsPerAddressPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => request.ip,
      errorResponseBuilder: (_request, context) => new AppError(100003, undefined, Math.max(1, Math.ceil(context.ttl / 1000))),
    });

    scopedRoute(E.start, async ({ body, request, reply }) => {
      const browser = cookieValue(request, BROWSER_COOKIE, BROWSER_ID) ?? randomBytes(32).toString('base64url');
      const started = await sso.start(body, browser);
      setBrowserCookie(request, reply, browser);
      return started;
    });

    scopedRoute(E.finish, ({ body, request }) => sso.finish(body, cookieValue(request, BROWSER_COOKIE, BROWSER_ID)));
  });
}
