import { endpoint } from '../endpoint.ts';
import { EmptySchema } from '../common.ts';
import { UpdateProfileBodySchema } from '../users.ts';
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
  updateProfile: endpoint({
    method: 'POST',
    path: '/api1/user/v1/update',
    tags: ['accounts'],
    summary: 'Edit the signed-in user’s own name, e-mail, phone and remarks',
    description: 'SaaS mode only, and not for sub-accounts above editable (spec section 2); others get 110003.',
    access: 'signedIn',
    body: UpdateProfileBodySchema,
    response: LoginUserSchema,
    errors: [110003, 250001, 100011],
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
