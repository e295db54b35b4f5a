import type { Lang } from '@lumigrid/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';

/** Who is calling: resolved from the bearer token on every authenticated route. */
export interface AuthContext {
  userId: bigint;
  /** The account (customer organisation) whose data the caller may touch. */
  tenantId: bigint;
  userAuth: number;
  operateAuth: number;
  /** The push permission (push review); absent counts as none. */
  pushAuth?: boolean;
  lang: Lang;
  sessionId: bigint;
  /** The projects a sub-account (or an API key) is limited to; absent when the caller sees every project of its account. */
  scope?: ProjectScope;
  /** The API key the call came with (contract api-keys.ts); the caller is then the user who made it, within its scope. */
  apiKeyId?: bigint;
}

/** Projects (with their sub-projects) and the maps in them that a limited sub-account may see. */
export interface ProjectScope {
  projectIds: ReadonlySet<bigint>;
  mapIds: ReadonlySet<bigint>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** The caller of an authenticated route; the auth hook has put it there or refused the request. */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError(250004);
  return request.auth;
}
