import { Envelope } from '@lumigrid/contract';
import type { TSchema } from 'typebox';
import { BEARER } from './guards.ts';

/** Who may call a tenant route, as its OpenAPI description says it (docs/roles.md). */
export const ACCESS = {
  write: 'Owners and editable users (operate_auth 0, 2) only; others get 110003. Ids of another account answer 110011.',
  control:
    'Owners, editable and controllable users (operate_auth 0, 2, 3); view-only users get 110003. Ids of another account answer 110011.',
  read: 'Any user of the account. Ids of another account (or unknown ids) answer 110011.',
} as const;

/** The OpenAPI part every signed-in route shares: tag, summary, description, bearer token, enveloped answer. */
export function signedInDoc(tags: string[]) {
  return (summary: string, description: string, response: TSchema) => ({
    tags,
    summary,
    description,
    security: BEARER,
    response: { 200: Envelope(response) },
  });
}
