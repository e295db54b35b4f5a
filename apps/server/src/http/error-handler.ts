import { applySecurityHeaders } from './security-headers.ts';
import { errorMessage, errorStatus, type ErrorCode } from '@lumigrid/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import { requestLang } from './envelope.ts';
import { inputProblem, type SchemaError } from './input-problem.ts';

function send(request: FastifyRequest, reply: FastifyReply, code: ErrorCode, detail?: string) {
  const base = errorMessage(code, requestLang(request));
  // The audit trail records the outcome of the call (audit-entry.ts).
  request.answerCode = code;
  return reply.status(errorStatus(code)).send({ code, msg: detail ? `${base}: ${detail}` : base, data: null });
}

/** Fastify's own client errors (bad JSON, wrong content type, too large) become catalogue codes. */
function clientErrorCode(error: FastifyError): ErrorCode | undefined {
  if (error.statusCode === 413) return 100004;
  if (error.statusCode === 429) return 100003;
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return 100001;
  return undefined;
}

/**
 * Errors Fastify raises before routing (a malformed URL such as `%00%ff`) never reach the error handler;
 * this gives them the same envelope, as invalid input.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  applySecurityHeaders(request, reply);
  // Fastify neither awaits nor reads what this returns: the answer is sent here.
  send(request, reply, 100001, error.message);
}

/** The one place that maps errors to answers: `{ code, msg, data: null }` with the code's HTTP status. */
export function registerErrorHandling(app: FastifyInstance, options: { servePages: boolean }) {
  app.setErrorHandler((thrown: unknown, request, reply) => {
    if (thrown instanceof AppError) {
      const error = thrown;
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return send(request, reply, error.code, error.detail);
    }
    const error = thrown as FastifyError;
    if (error.validation) {
      // The field and what is wrong with it, in the caller's language (docs/api.md "HTTP statuses").
      return send(request, reply, 100001, inputProblem(error.validation as SchemaError[], requestLang(request), error.validationContext));
    }
    const clientCode = clientErrorCode(error);
    if (clientCode) return send(request, reply, clientCode, clientCode === 100001 ? error.message : undefined);
    request.log.error({ err: error }, 'unexpected error');
    return send(request, reply, 100005);
  });

  app.setNotFoundHandler((request, reply) => {
    // Page paths of the browser client get index.html so its router can take them; API paths get 404.
    if (options.servePages && isPagePath(request)) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return send(request, reply, 100002);
  });
}

function isPagePath(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !/^\/(api\d*|test|ws|healthz|metrics)(\/|$)/.test(path) &&
    !/\.[a-z0-9]+$/i.test(path)
  );
}
