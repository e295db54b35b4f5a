import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** The request a piece of work is done for: its id and its logger, which writes the id on every line. */
export interface RequestContext {
  id: string;
  log: FastifyBaseLogger;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** The header a caller (a load balancer, a client) names its request with, and the server answers it in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** An id from outside is taken only when it cannot forge a log line or grow one: short, and a safe alphabet. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Fastify's genReqId: the caller's x-request-id when it is sane, a fresh UUID otherwise (unique across server
 * nodes, unlike Fastify's per-process counter).
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The logger of the request this code runs for, or `fallback` outside any request (jobs, gateway messages). */
export function requestLog(fallback: FastifyBaseLogger): FastifyBaseLogger {
  return storage.getStore()?.log ?? fallback;
}

/**
 * Answers every request with its id, and runs validation, handlers and everything they start inside the
 * request's context. Entered at preValidation, not onRequest: a body is read in the socket's own async
 * context, so a context entered before parsing would be lost by the time the handler runs.
 */
export function registerRequestContext(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.addHook('preValidation', (request, _reply, done) => {
    storage.run({ id: request.id, log: request.log }, done);
  });
}
