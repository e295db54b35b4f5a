/** user_auth: who the user is on the platform (docs/roles.md). */
export const USER_AUTH = { admin: 1, account: 2, subAccount: 3 } as const;
export type UserAuth = (typeof USER_AUTH)[keyof typeof USER_AUTH];

/** operate_auth: what the user may do inside the account. 1 is unused (docs/roles.md). */
export const OPERATE_AUTH = { owner: 0, editable: 2, controllable: 3, viewOnly: 4 } as const;
export type OperateAuth = (typeof OPERATE_AUTH)[keyof typeof OPERATE_AUTH];

export type Mode = 'saas' | 'server';

interface MenuSubject {
  user_auth: number;
  operate_auth: number;
}

/** Spec section 6: the Push menu shows only to owners (operate_auth 0) in SaaS mode. */
export function canSeePush(user: MenuSubject, mode: Mode): boolean {
  return user.operate_auth === OPERATE_AUTH.owner && mode === 'saas';
}

/**
 * Spec section 6: a sub-account (user_auth 3) sees the system menu only when editable (2), and then just
 * the library and the user centre; everybody else sees the whole system menu.
 */
export function systemMenuScope(user: MenuSubject): 'all' | 'libraryAndCentre' | 'none' {
  if (user.user_auth !== USER_AUTH.subAccount) return 'all';
  return user.operate_auth === OPERATE_AUTH.editable ? 'libraryAndCentre' : 'none';
}

/** Spec section 6: the administrator-accounts tab is the platform administrator's alone. */
export function canSeeAdministrators(user: MenuSubject): boolean {
  return user.user_auth === USER_AUTH.admin;
}

/** Spec section 2: the edit-own-info button shows only in SaaS mode, and not to sub-accounts above editable. */
export function canEditOwnInfo(user: MenuSubject, mode: Mode): boolean {
  return mode === 'saas' && !(user.user_auth >= USER_AUTH.subAccount && user.operate_auth > OPERATE_AUTH.editable);
}
