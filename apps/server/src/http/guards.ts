import { USER_AUTH } from '@lumigrid/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import { bearerToken, type AuthContext } from './auth.ts';

export type Authenticate = (token: string) => Promise<AuthContext>;

/** An onRequest hook that resolves the bearer token or refuses the request before any body is read. */
export function requireAuth(authenticate: Authenticate) {
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw new AppError(250004);
    request.auth = await authenticate(token);
  };
}

/** Only the platform administrator (user_auth 1) may go on. */
export function assertPlatformAdmin(auth: AuthContext) {
  if (auth.userAuth !== USER_AUTH.admin) throw new AppError(110003);
}

/** OpenAPI: marks a route as needing the bearer token. */
export const BEARER = [{ bearerAuth: [] }];
