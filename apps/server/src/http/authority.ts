import { mayCall, type Access } from '@lumigrid/contract';
import { AppError } from './app-error.ts';
import type { AuthContext } from './auth.ts';

/**
 * Refuses a caller without the authority an action needs (110003), by the one rule of contract roles.ts.
 * Routes check their endpoint's level before the handler runs; services check again where the same action
 * is reached from elsewhere, and for actions finer than their endpoint.
 */
export function assertMay(
  auth: Pick<AuthContext, 'operateAuth'> & Partial<Pick<AuthContext, 'userAuth' | 'pushAuth'>>,
  access: Access,
): void {
  if (!mayCall(access, auth)) throw new AppError(110003);
}
