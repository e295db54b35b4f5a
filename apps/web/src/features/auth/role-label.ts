import { OPERATE_AUTH, USER_AUTH } from '@lumigrid/contract/browser';

export type RoleKey =
  'role.admin' | 'role.account' | 'role.subAccount' | 'role.owner' | 'role.editable' | 'role.controllable' | 'role.viewOnly';

const USER_AUTH_KEYS: Record<number, RoleKey> = {
  [USER_AUTH.admin]: 'role.admin',
  [USER_AUTH.account]: 'role.account',
  [USER_AUTH.subAccount]: 'role.subAccount',
};

const OPERATE_AUTH_KEYS: Record<number, RoleKey> = {
  [OPERATE_AUTH.owner]: 'role.owner',
  [OPERATE_AUTH.editable]: 'role.editable',
  [OPERATE_AUTH.controllable]: 'role.controllable',
  [OPERATE_AUTH.viewOnly]: 'role.viewOnly',
};

/** The catalogue key of an authority inside the account (operate_auth). */
export function operateAuthKey(operateAuth: number): RoleKey | undefined {
  return OPERATE_AUTH_KEYS[operateAuth];
}

/** A value the catalogue knows, or the raw number for one it does not (shown as "Unknown (n)"). */
export type RolePart = { key: RoleKey } | { unknown: number };

/** Describes a user's two authority numbers (docs/roles.md): who they are, and what they may do. */
export function describeRole(user: { user_auth: number; operate_auth: number }): { user: RolePart; operate: RolePart } {
  const userKey = USER_AUTH_KEYS[user.user_auth];
  const operateKey = OPERATE_AUTH_KEYS[user.operate_auth];
  return {
    user: userKey ? { key: userKey } : { unknown: user.user_auth },
    operate: operateKey ? { key: operateKey } : { unknown: user.operate_auth },
  };
}
