import { Type } from 'typebox';
import {
  AccountExistsSchema,
  ChangePasswordBodySchema,
  EmptySchema,
  Envelope,
  LoginUserSchema,
  UpdateLangBodySchema,
} from '@lumigrid/contract';
import { caller } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { BEARER, type Authenticate, requireAuth } from '../../http/guards.ts';
import type { App } from '../../http/types.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { AccountsService } from './accounts.service.ts';

const tags = ['accounts'];

export function registerAccountRoutes(app: App, deps: { accounts: AccountsService; auth: AuthService; authenticate: Authenticate }) {
  const { accounts, auth } = deps;
  const onRequest = requireAuth(deps.authenticate);

  app.get('/api1/user/v1/check_account_exist/:account', {
    schema: {
      tags,
      summary: 'Whether an account (e-mail, phone or name) is taken',
      params: Type.Object({ account: Type.String({ minLength: 1, maxLength: 100 }) }),
      response: { 200: Envelope(AccountExistsSchema) },
    },
    handler: async (request) => ok(request, { exists: await accounts.accountExists(request.params.account) }),
  });

  app.get('/api1/user/v1/me', {
    schema: { tags, summary: 'The signed-in user', security: BEARER, response: { 200: Envelope(LoginUserSchema) } },
    onRequest,
    handler: async (request) => ok(request, await accounts.profile(caller(request))),
  });

  app.post('/api1/user/v1/change_password', {
    schema: {
      tags,
      summary: 'Change the own password; other sessions end',
      security: BEARER,
      body: ChangePasswordBodySchema,
      response: { 200: Envelope(EmptySchema) },
    },
    onRequest,
    handler: async (request) => {
      await auth.changePassword(caller(request), request.body);
      return ok(request, null);
    },
  });

  app.post('/api1/user/v1/lang', {
    schema: {
      tags,
      summary: 'Save the interface language of the signed-in user',
      security: BEARER,
      body: UpdateLangBodySchema,
      response: { 200: Envelope(EmptySchema) },
    },
    onRequest,
    handler: async (request) => {
      await accounts.setLang(caller(request), request.body.lang);
      return ok(request, null);
    },
  });
}
