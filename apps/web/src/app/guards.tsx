import { type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { guardRedirect, loginRouteFor, rootRedirect, session, signOutRoute } from '../api/session.ts';
import { useMe } from '../features/auth/api.ts';
import { useBoot } from './boot.tsx';
import { canOpen } from './menu.ts';

/** "/" goes to /home when signed in, else to the login route of the mode (spec section 2). */
export function RootRedirect() {
  const { mode } = useBoot();
  return <Navigate to={rootRedirect(Boolean(session.token()), mode)} replace />;
}

/** "/user" goes to the login route of the mode. */
export function UserIndexRedirect() {
  const { mode } = useBoot();
  return <Navigate to={loginRouteFor(mode)} replace />;
}

/**
 * Every page outside /user needs a token (spec section 2). The token is read at navigation time, not
 * watched: when a call ends the session, the API client chooses where to go.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const { mode } = useBoot();
  // The sign-in tab the user last used (phone only after a phone sign-in, or in server mode).
  const target = guardRedirect(pathname, search, Boolean(session.token()), signOutRoute(mode, session.loginType()));
  return target ? <Navigate to={target} replace /> : children;
}

/** "/system" opens the account screens for those who manage accounts, the user centre for everyone else. */
export function SystemIndexRedirect() {
  const { data: user } = useMe();
  if (!user) return null;
  return <Navigate to={canOpen('/system/account', user) ? '/system/account' : '/system/center'} replace />;
}
