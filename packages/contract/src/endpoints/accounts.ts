import { endpoint } from '../endpoint.ts';
import { EmptySchema } from '../common.ts';
import { AccountExistsSchema, AccountParamsSchema, ChangePasswordBodySchema, LoginUserSchema, UpdateLangBodySchema } from '../auth.ts';

/** The signed-in user's own account: profile, password, language; whether an account name is taken. */
export const accountEndpoints = {
  accountExists: endpoint({
    method: 'GET',
    path: '/api1/user/v1/check_account_exist/:account',
    tags: ['accounts'],
    summary: 'Whether an account (e-mail, phone or name) is taken',
    access: 'public',
    params: AccountParamsSchema,
    response: AccountExistsSchema,
  }),
  profile: endpoint({
    method: 'GET',
    path: '/api1/user/v1/me',
    tags: ['accounts'],
    summary: 'The signed-in user',
    access: 'signedIn',
    response: LoginUserSchema,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/api1/user/v1/change_password',
    tags: ['accounts'],
    summary: 'Change the own password; other sessions end',
    access: 'signedIn',
    body: ChangePasswordBodySchema,
    response: EmptySchema,
  }),
  setLang: endpoint({
    method: 'POST',
    path: '/api1/user/v1/lang',
    tags: ['accounts'],
    summary: 'Save the interface language of the signed-in user',
    access: 'signedIn',
    body: UpdateLangBodySchema,
    response: EmptySchema,
  }),
};
