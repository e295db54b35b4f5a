/** user_auth: who the user is on the platform (docs/roles.md). */
export const USER_AUTH = { admin: 1, account: 2, subAccount: 3 } as const;
export type UserAuth = (typeof USER_AUTH)[keyof typeof USER_AUTH];

/** operate_auth: what the user may do inside the account. 1 is unused (docs/roles.md). */
export const OPERATE_AUTH = { owner: 0, editable: 2, controllable: 3, viewOnly: 4 } as const;
export type OperateAuth = (typeof OPERATE_AUTH)[keyof typeof OPERATE_AUTH];

export type Mode = 'saas' | 'server';

/** Whose rights a rule asks about: the two numbers of the signed-in user (spec section 3, docs/roles.md). */
export interface RoleSubject {
  /** Absent where only the authority inside the account matters; then nobody counts as platform administrator. */
  userAuth?: number;
  operateAuth: number;
  /** The separate push permission (spec section 6): a platform administrator who reviews push news. */
  pushAuth?: boolean;
}

/** Owners and editable users change the installation: projects, maps, gateways, devices, groups, settings. */
export function canEdit(subject: Pick<RoleSubject, 'operateAuth'>): boolean {
  return subject.operateAuth === OPERATE_AUTH.owner || subject.operateAuth === OPERATE_AUTH.editable;
}

/** Owners, editable and controllable users switch, dim and identify devices, groups and gateways. */
export function canControl(subject: Pick<RoleSubject, 'operateAuth'>): boolean {
  return canEdit(subject) || subject.operateAuth === OPERATE_AUTH.controllable;
}

/** Every user of an account sees its installation; view-only users see and nothing more. */
export function canView(subject: Pick<RoleSubject, 'operateAuth'>): boolean {
  return canControl(subject) || subject.operateAuth === OPERATE_AUTH.viewOnly;
}

/** The platform administrator (user_auth 1): accounts, the outbox, platform settings. */
export function isPlatformAdmin(subject: Pick<RoleSubject, 'userAuth'>): boolean {
  return subject.userAuth === USER_AUTH.admin;
}

/** The owner of a customer account (not the platform administrator, whose account is the platform). */
export function isAccountOwner(subject: RoleSubject): boolean {
  return subject.userAuth === USER_AUTH.account && subject.operateAuth === OPERATE_AUTH.owner;
}

/** The platform administrator and account owners manage accounts; sub-accounts manage nobody. */
export function canManageAccounts(subject: RoleSubject): boolean {
  return isPlatformAdmin(subject) || (subject.userAuth === USER_AUTH.account && subject.operateAuth === OPERATE_AUTH.owner);
}

/**
 * Which accounts a manager may create and touch: the platform administrator manages every user, an owner
 * the sub-accounts of its own account (the server checks the account is theirs).
 */
export function managesUserAuth(manager: RoleSubject, userAuth: number): boolean {
  if (isPlatformAdmin(manager)) return userAuth === USER_AUTH.admin || userAuth === USER_AUTH.account || userAuth === USER_AUTH.subAccount;
  return canManageAccounts(manager) && userAuth === USER_AUTH.subAccount;
}

/**
 * Who may call an endpoint of the table (contract endpoint.ts):
 * - public: anybody, without a token;
 * - signedIn: any signed-in user, about their own session and profile;
 * - read / control / write: a user of the account with that authority (canView / canControl / canEdit);
 * - manageAccounts: the platform administrator (administrators and accounts) and account owners (their
 *   sub-accounts); which accounts each may touch the server checks per account;
 * - accountOwner: the owner of a customer account (user_auth 2, operate_auth 0) about the account itself, such
 *   as its single sign-on;
 * - admin: the platform administrator only;
 * - push: push-news management, for owners and the platform administrator (operate_auth 0), SaaS mode only;
 * - pushReview: the push review queue, for platform administrators with the push permission.
 * Which objects the caller may touch (tenancy, project scopes) the server checks per object on top.
 */
export const ACCESS_LEVELS = [
  'public',
  'signedIn',
  'read',
  'control',
  'write',
  'manageAccounts',
  'accountOwner',
  'admin',
  'push',
  'pushReview',
] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** Whether a signed-in subject passes an endpoint's access level; `public` passes everybody. */
export function mayCall(access: Access, subject: RoleSubject): boolean {
  switch (access) {
    case 'public':
    case 'signedIn':
      return true;
    case 'read':
      return canView(subject);
    case 'control':
      return canControl(subject);
    case 'write':
      return canEdit(subject);
    case 'manageAccounts':
      return canManageAccounts(subject);
    case 'accountOwner':
      return isAccountOwner(subject);
    case 'admin':
      return isPlatformAdmin(subject);
    case 'push':
      return managesPush(subject);
    case 'pushReview':
      return canReviewPush(subject);
  }
}

/** Push-news management (spec section 6): operate_auth 0, that is account owners and the platform administrator. */
export function managesPush(subject: Pick<RoleSubject, 'operateAuth'>): boolean {
  return subject.operateAuth === OPERATE_AUTH.owner;
}

/** The push review queue: platform administrators given the separate push permission (docs/roles.md). */
export function canReviewPush(subject: RoleSubject): boolean {
  return isPlatformAdmin(subject) && subject.operateAuth === OPERATE_AUTH.owner && subject.pushAuth === true;
}

/** The signed-in user as the browser keeps it (spec section 3 field names). */
export interface StoredUser {
  user_auth: number;
  operate_auth: number;
  /** The push permission; absent counts as none. */
  push_auth?: boolean;
}

/** Whether the browser's user may do what an access level needs; nobody signed in may do nothing. */
export function userMay(user: StoredUser | undefined, access: Access): boolean {
  return user !== undefined && mayCall(access, { userAuth: user.user_auth, operateAuth: user.operate_auth, pushAuth: user.push_auth });
}

/**
 * Issue 32: every user of an account manages API keys, sub-accounts included, each its own keys up to its own
 * authority and within its own projects (the server checks both): the access level of the key endpoints.
 */
export const API_KEYS_ACCESS = 'read' as const satisfies Access;

/** Whether a signed-in user manages API keys (System > API keys): whoever the key endpoints let in. */
export function canManageApiKeys(user: StoredUser | undefined): boolean {
  return userMay(user, API_KEYS_ACCESS);
}

/** The sentence the API documentation adds to every endpoint of each access level. */
export const ACCESS_TEXT: Record<Access, string> = {
  public: 'No token needed.',
  signedIn: 'Any signed-in user.',
  read: 'Any user of the account. Ids of another account (or unknown ids) answer 110011.',
  control:
    'Owners, editable and controllable users (operate_auth 0, 2, 3); view-only users get 110003. Ids of another account answer 110011.',
  write: 'Owners and editable users (operate_auth 0, 2) only; others get 110003. Ids of another account answer 110011.',
  manageAccounts:
    'The platform administrator (administrators and accounts) and account owners (their sub-accounts); others get 110003. Accounts the caller does not manage answer 110011.',
  accountOwner: 'The owner of a customer account (user_auth 2, operate_auth 0) only; others get 110003.',
  admin: 'The platform administrator (user_auth 1) only; others get 110003.',
  push: 'Account owners and the platform administrator (operate_auth 0) only; others get 110003. SaaS mode only (100504 in server mode). Ids of another account answer 110011.',
  pushReview:
    'Platform administrators with the push permission (push_auth) only; others get 110003. SaaS mode only (100504 in server mode).',
};

interface MenuSubject {
  user_auth: number;
  operate_auth: number;
  push_auth?: boolean;
  /** The server's own demo account (LoginUser.demo). */
  demo?: boolean;
}

/**
 * Spec section 6: the Push menu shows only to owners (operate_auth 0) in SaaS mode. Push news is a platform
 * operator's feature, so the demo account, an owner a newcomer signs in to, sees it only with the push permission.
 */
export function canSeePush(user: MenuSubject, mode: Mode): boolean {
  if (user.demo === true && user.push_auth !== true) return false;
  return user.operate_auth === OPERATE_AUTH.owner && mode === 'saas';
}

/** The pushed review screen: inside the Push menu, for platform administrators with the push permission. */
export function canSeePushReview(user: MenuSubject, mode: Mode): boolean {
  return canSeePush(user, mode) && canReviewPush({ userAuth: user.user_auth, operateAuth: user.operate_auth, pushAuth: user.push_auth });
}

/**
 * Spec section 6: a sub-account (user_auth 3) sees the system menu only when editable (2), and then just
 * the library and the user centre; everybody else sees the whole system menu. API keys, which the spec predates,
 * come on top for every sub-account (canManageApiKeys).
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
