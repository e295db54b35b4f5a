import type { LoginMethod } from '../../features/branding/branding.ts';

/** The sign-in page of each method. */
export const LOGIN_ROUTE: Record<LoginMethod, string> = { mail: '/user/login', tel: '/user/tel-login' };

/** The sign-up page of each method. */
export const SIGN_UP_ROUTE: Record<LoginMethod, string> = { mail: '/user/registered', tel: '/user/tel-registered' };

/** The forgot-password page's `type` for each method: the sign-in page it is reached from. */
export const FORGOT_TYPE: Record<LoginMethod, string> = { mail: 'login', tel: 'tel-login' };
