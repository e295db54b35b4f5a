import { Type } from 'typebox';
import {
  CaptchaSchema,
  EmptySchema,
  Envelope,
  LoginBodySchema,
  LoginResultSchema,
  RegisterMailBodySchema,
  RegisterPhoneBodySchema,
  ResetPasswordBodySchema,
  SendCodeBodySchema,
} from '@lumigrid/contract';
import { caller } from '../../http/auth.ts';
import { ok, requestLang } from '../../http/envelope.ts';
import { BEARER, type Authenticate, requireAuth } from '../../http/guards.ts';
import type { App } from '../../http/types.ts';
import type { AuthService } from './auth.service.ts';

const RegisteredSchema = Type.Object({ account: Type.String() });
const tags = ['auth'];

export function registerAuthRoutes(app: App, deps: { auth: AuthService; authenticate: Authenticate }) {
  const { auth } = deps;

  app.get('/api1/user/v1/captcha', {
    schema: { tags, summary: 'A new graphic captcha', response: { 200: Envelope(CaptchaSchema) } },
    handler: async (request) => ok(request, await auth.captcha()),
  });

  app.post('/api1/user/v1/send_code', {
    schema: {
      tags,
      summary: 'Send a verification code by mail or text message',
      body: SendCodeBodySchema,
      response: { 200: Envelope(EmptySchema) },
    },
    handler: async (request) => {
      await auth.sendCode(request.body, requestLang(request));
      return ok(request, null);
    },
  });

  app.post('/api1/user/v1/register/mail', {
    schema: { tags, summary: 'Sign up by e-mail', body: RegisterMailBodySchema, response: { 200: Envelope(RegisteredSchema) } },
    handler: async (request) => ok(request, await auth.registerByMail(request.body, requestLang(request))),
  });

  app.post('/api1/user/v1/register/tel', {
    schema: { tags, summary: 'Sign up by phone', body: RegisterPhoneBodySchema, response: { 200: Envelope(RegisteredSchema) } },
    handler: async (request) => ok(request, await auth.registerByPhone(request.body, requestLang(request))),
  });

  app.post('/api1/user/v1/login', {
    schema: {
      tags,
      summary: 'Sign in with e-mail, phone or account name and password',
      body: LoginBodySchema,
      response: { 200: Envelope(LoginResultSchema) },
    },
    handler: async (request) => ok(request, await auth.login(request.body, { ip: request.ip })),
  });

  app.post('/api1/user/v1/reset_password', {
    schema: {
      tags,
      summary: 'Set a new password with a verification code',
      body: ResetPasswordBodySchema,
      response: { 200: Envelope(EmptySchema) },
    },
    handler: async (request) => {
      await auth.resetPassword(request.body);
      return ok(request, null);
    },
  });

  app.post('/api1/user/v1/logout', {
    schema: { tags, summary: 'Sign out: the token dies on the server', security: BEARER, response: { 200: Envelope(EmptySchema) } },
    onRequest: requireAuth(deps.authenticate),
    handler: async (request) => {
      await auth.logout(caller(request));
      return ok(request, null);
    },
  });
}
