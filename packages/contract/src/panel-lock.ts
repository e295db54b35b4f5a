import { Type, type Static } from 'typebox';
import { IdSchema } from './common.ts';

/**
 * Panel lock accounts (spec section 7, device/v1/read_panel_lock_accounts): a panel can be locked (the
 * `locked` flag of its status string); the accounts are the user slots the panel keeps, each a key card or
 * PIN user that may unlock it. They live on the panel and are read through its gateway
 * (docs/decisions.md, "Panel lock accounts").
 */
export const PanelLockAccountSchema = Type.Object({
  slot: Type.Integer({ minimum: 1, maximum: 16, description: 'The slot on the panel, 1-16' }),
  account: Type.String({ description: 'The card or user id as the panel stores it' }),
  name: Type.String({ description: 'The name the installer gave the slot; may be empty' }),
});
export type PanelLockAccount = Static<typeof PanelLockAccountSchema>;

/** The answer of read_panel_lock_accounts. */
export const PanelLockAccountsSchema = Type.Object({
  id: IdSchema,
  locked: Type.Boolean({ description: 'Whether the panel is locked now, as it answered' }),
  accounts: Type.Array(PanelLockAccountSchema, { description: 'The accounts that may unlock it, by slot' }),
});
export type PanelLockAccounts = Static<typeof PanelLockAccountsSchema>;
