import { unsafeTextIn } from '@lumigrid/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

/**
 * Refuses, before any schema or handler sees it, a request whose path parameters, query or JSON body hold a
 * control character, with the invalid-input code and nothing changed. One hook for every route, so a new
 * endpoint cannot forget it.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const problem = unsafeTextIn(request.params) ?? unsafeTextIn(request.query) ?? unsafeTextIn(request.body);
    if (problem) throw new AppError(100001, problem);
  });
}
