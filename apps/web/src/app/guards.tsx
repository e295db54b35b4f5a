import { type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { guardRedirect, loginRouteFor, rootRedirect, session } from '../api/session.ts';
import { useBoot } from './boot.tsx';

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
  const target = guardRedirect(pathname, search, Boolean(session.token()));
  return target ? <Navigate to={target} replace /> : children;
}
