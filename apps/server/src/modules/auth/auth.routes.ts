import { accountEndpoints, authEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { requestLang } from '../../http/envelope.ts';
import type { AuthService } from './auth.service.ts';
import { deviceIdOf, setDeviceCookie } from './device-cookie.ts';

/** Sign-up, sign-in, codes, the captcha and sign-out (contract endpoints/auth.ts). */
export function registerAuthRoutes(route: RouteOf, deps: { auth: AuthService }) {
  const service = deps.auth;

  route(E.captcha, () => service.captcha());

  route(E.sendCode, async ({ body, request }) => {
    await service.sendCode(body, requestLang(request), { ip: request.ip });
    return null;
  });

  route(E.registerByMail, ({ body, request }) => service.registerByMail(body, requestLang(request)));

  route(E.registerByPhone, ({ body, request }) => service.registerByPhone(body, requestLang(request)));

  route(E.login, async ({ body, request, reply }) => {
    const { answer, device } = await service.login(body, { ip: request.ip, device: deviceIdOf(request) });
    setDeviceCookie(request, reply, device);
    return answer;
  });

  route(accountEndpoints.accountExists, async ({ params, query, request }) => ({
    exists: await service.accountExists(params.account, query, { ip: request.ip }),
  }));

  route(E.resetPassword, async ({ body }) => {
    await service.resetPassword(body);
    return null;
  });

  // A new password ends the user's other sessions: the session side of the account.
  route(accountEndpoints.changePassword, async ({ auth, body }) => {
    await service.changePassword(auth, body);
    return null;
  });

  route(E.logout, async ({ auth }) => {
    await service.logout(auth);
    return null;
  });
}
