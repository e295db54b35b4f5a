import type { EndpointSpec } from '@lumigrid/contract';
import type { AuthContext } from './auth.ts';

/**
 * Resolves a bearer token (a session's or an API key) to its caller, or throws the code that refuses it. `call`
 * says which endpoint it is presented to and from where: a key reaches only some endpoints, and notes its address.
 */
export type Authenticate = (token: string, call: { spec: EndpointSpec; ip: string }) => Promise<AuthContext>;

/** OpenAPI: marks a route as needing the bearer token. */
export const BEARER = [{ bearerAuth: [] }];
