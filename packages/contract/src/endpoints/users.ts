import { Type } from 'typebox';
import { EmptySchema } from '../common.ts';
import { endpoint } from '../endpoint.ts';
import {
  AccountIdParamsSchema,
  AccountListParamsSchema,
  AccountListQuerySchema,
  AddAccountBodySchema,
  ManagedAccountPageSchema,
  ManagedAccountSchema,
  ResetAccountPasswordBodySchema,
  UpdateAccountBodySchema,
} from '../users.ts';

/**
 * Accounts an administrator or an account owner manages (spec sections 2, 6, 7 "Users"): the platform
 * administrator manages administrators and accounts, an owner the sub-accounts of its account.
 */
export const userEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api1/user/v1/sub_users/:userAuth/:page/:pageSize',
    tags: ['users'],
    summary: 'A page of the administrators (1), accounts (2) or sub-accounts (3) the caller manages',
    access: 'manageAccounts',
    params: AccountListParamsSchema,
    query: AccountListQuerySchema,
    response: ManagedAccountPageSchema,
    errors: [110003],
  }),
  subAccounts: endpoint({
    method: 'GET',
    path: '/api1/user/v1/sub_user',
    tags: ['users'],
    summary: 'Every sub-account of the caller’s own account at once, newest first (for pickers)',
    access: 'manageAccounts',
    response: Type.Array(ManagedAccountSchema, { maxItems: 1000 }),
    errors: [110003],
  }),
  detail: endpoint({
    method: 'GET',
    path: '/api1/user/v1/sub_users/:id',
    tags: ['users'],
    summary: 'One account the caller manages',
    access: 'manageAccounts',
    params: AccountIdParamsSchema,
    response: ManagedAccountSchema,
    errors: [110011],
  }),
  add: endpoint({
    method: 'POST',
    path: '/api1/user/v1/add_user',
    tags: ['users'],
    summary: 'Create an administrator or an account (platform administrator), or a sub-account (account owner)',
    access: 'manageAccounts',
    body: AddAccountBodySchema,
    response: ManagedAccountSchema,
    errors: [110003, 250001, 100010, 100011],
  }),
  update: endpoint({
    method: 'POST',
    path: '/api1/user/v1/update_user',
    tags: ['users'],
    summary: 'Edit, enable or disable an account the caller manages',
    description:
      'Disabling ends the account’s sessions at once (open browsers show the forced-logout dialog, 250018); changing a ' +
      'sub-account’s authority ends its sessions with 250019.',
    access: 'manageAccounts',
    body: UpdateAccountBodySchema,
    response: ManagedAccountSchema,
    errors: [110011, 250001],
  }),
  remove: endpoint({
    method: 'POST',
    path: '/api1/user/v1/delete_user',
    tags: ['users'],
    summary: 'Delete an account the caller manages; its sessions end and its next call answers 250020',
    access: 'manageAccounts',
    body: AccountIdParamsSchema,
    response: EmptySchema,
    errors: [110011],
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/api1/user/v1/reset_user_password',
    tags: ['users'],
    summary: 'Give an account a new random password, sent by e-mail or text message; its sessions end',
    access: 'manageAccounts',
    body: ResetAccountPasswordBodySchema,
    response: EmptySchema,
    errors: [110011, 100012],
  }),
};
