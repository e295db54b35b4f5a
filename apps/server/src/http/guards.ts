import type { AuthContext } from './auth.ts';

/** Resolves a bearer token to its caller, or throws the session's code (the auth service's lookup). */
export type Authenticate = (token: string) => Promise<AuthContext>;

/** OpenAPI: marks a route as needing the bearer token. */
export const BEARER = [{ bearerAuth: [] }];
