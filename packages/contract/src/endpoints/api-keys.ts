import { endpoint } from '../endpoint.ts';
import { API_KEYS_ACCESS } from '../roles.ts';
import { EmptySchema } from '../common.ts';
import { ApiKeyCreateBodySchema, ApiKeyCreatedSchema, ApiKeyListSchema, ApiKeyRevokeBodySchema } from '../api-keys.ts';

const WHOSE =
  'An account owner sees and revokes every key of the account; every other user, sub-accounts included, their own. Keys themselves never reach these calls (101005).';

/** API keys for integrators (docs/api.md "API keys"): made, listed and revoked by signed-in users only. */
export const apiKeyEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api1/api_key/v1/list',
    tags: ['apiKeys'],
    summary: 'The API keys of the account, newest first, revoked ones included; never their secrets',
    description: WHOSE,
    access: API_KEYS_ACCESS,
    sessionOnly: true,
    response: ApiKeyListSchema,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api1/api_key/v1/create',
    tags: ['apiKeys'],
    summary: 'Make an API key; the answer carries its secret this once, the server keeps only a hash',
    description: `The key calls as its maker, within its scope and never beyond the maker's own authority (110003), on the projects given (110011 for one the maker does not see). ${WHOSE}`,
    access: API_KEYS_ACCESS,
    sessionOnly: true,
    body: ApiKeyCreateBodySchema,
    response: ApiKeyCreatedSchema,
    errors: [101006, 101007],
    audit: { record: true },
  }),
  revoke: endpoint({
    method: 'POST',
    path: '/api1/api_key/v1/revoke',
    tags: ['apiKeys'],
    summary: 'Revoke an API key: its next call answers 101002',
    description: `A key already revoked stays revoked. An id the caller may not touch answers 110011. ${WHOSE}`,
    access: API_KEYS_ACCESS,
    sessionOnly: true,
    body: ApiKeyRevokeBodySchema,
    response: EmptySchema,
    audit: { record: true },
  }),
};
