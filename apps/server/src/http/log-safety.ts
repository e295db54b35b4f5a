import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pino from 'pino';

/** Field names whose values never reach a log, wherever they sit in a logged object. */
const SECRET_KEYS = new Set([
  'password',
  'newPassword',
  'oldPassword',
  'passwordHash',
  'password_hash',
  'token',
  'access_token',
  'clientSecret',
  'gatewayVerifierKey',
  'client_secret',
  'authorization',
  'cookie',
  'params',
  'parameters',
]);

/** A query's bound values ("params: ...") follow the SQL in a driver's message; they may hold hashes or codes. */
function withoutBoundValues(message: string): string {
  const at = message.search(/\n\s*params:/);
  return at >= 0 ? `${message.slice(0, at)}\nparams: [redacted]` : message;
}

/** An error as the log shows it: type, message, stack and database code, never bound values or secret fields. */
export function safeError(error: unknown): { type: string; message: string; stack: string; [key: string]: unknown } {
  // A reason given as text (or a number) is kept as text: its characters are not an error's fields.
  if (typeof error !== 'object' || error === null) return { type: typeof error, message: withoutBoundValues(String(error)), stack: '' };
  const plain = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  const clean = (value: Record<string, unknown>, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (SECRET_KEYS.has(key)) continue;
      if (key === 'message' || key === 'stack') out[key] = typeof v === 'string' ? withoutBoundValues(v) : v;
      else if (v && typeof v === 'object' && !Array.isArray(v) && depth < 3) out[key] = clean(v as Record<string, unknown>, depth + 1);
      else if (key !== 'query') out[key] = v;
    }
    return out;
  };
  const out = clean(plain, 0);
  // The driver's own error (its SQLSTATE code, its message) is what an operator needs; it sits in the cause.
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Error && out.cause === undefined) {
    const { stack: _stack, ...rest } = safeError(cause);
    out.cause = rest;
  }
  return out as { type: string; message: string; stack: string; [key: string]: unknown };
}

/**
 * The server's logger settings: request lines show the path without its query string (tokens and codes may
 * travel there), errors go through safeError, and auth headers are cut out wherever they appear.
 */
export function loggerOptions(
  level: string,
  format: 'pretty' | 'json' = 'json',
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    // A person at a terminal reads short lines; everything else (files, collectors) gets JSON.
    ...(format === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId', singleLine: true } } }
      : {}),
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string }) => ({
        method: req.method,
        url: (req.url ?? '').split('?')[0],
        remoteAddress: req.ip,
      }),
      err: safeError,
    },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'], remove: true },
  };
}

/** One debug line per answered request: method, path without its query, status and time taken. */
export function registerRequestLog(app: FastifyInstance) {
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug(`${request.method} ${request.url.split('?')[0]} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`);
  });
}
