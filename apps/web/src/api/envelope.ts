import { SUCCESS } from '@lumigrid/contract/browser';

/** The answer envelope of every API call: code 0 is success. */
export interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}

/** Business code 250004: the session is gone, the user must sign in again (spec section 7). */
export const RELOGIN_CODE = 250004;

export function isEnvelope(body: unknown): body is Envelope {
  return (
    body !== null &&
    typeof body === 'object' &&
    typeof (body as Record<string, unknown>).code === 'number' &&
    'data' in (body as Record<string, unknown>)
  );
}

/** What the client does about an answer that is not a success (spec section 7, "Handling of answers"). */
export type FailureAction =
  /** 250004 in any answer: tell the user to sign in again, then go to /user/login after 1 s. */
  | { kind: 'relogin'; message?: string }
  /** 401: no or invalid token; go to the login page. */
  | { kind: 'unauthorised' }
  /** 403: the session ended (expired, disabled, deleted); show why, drop the token, go to login. */
  | { kind: 'sessionEnded'; code?: number; message?: string }
  /** 404 without an envelope: the route does not exist on the server. */
  | { kind: 'notFound' }
  /** 429: too many attempts; Retry-After says when to try again. */
  | { kind: 'rateLimited'; code?: number; message?: string; retryAfterSeconds?: number }
  /** Any other business code: show the server's message. */
  | { kind: 'business'; code: number; message?: string }
  /** A status without an envelope (a proxy error page, a crash). */
  | { kind: 'http'; status: number }
  /** No answer at all. */
  | { kind: 'network' }
  | { kind: 'timeout' };

export type Outcome = { ok: true; data: unknown } | { ok: false; action: FailureAction };

function nonEmpty(text: string | undefined): string | undefined {
  return text && text.trim() ? text : undefined;
}

/** Seconds to wait from a Retry-After header: either delta-seconds or an HTTP date. */
export function parseRetryAfter(header: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Decides what an HTTP answer means. Pure, so every branch of spec section 7 is unit-tested. */
export function interpretResponse(status: number, body: unknown, retryAfter?: string | null, now?: number): Outcome {
  const envelope = isEnvelope(body) ? body : undefined;
  const message = nonEmpty(envelope?.msg);
  // 250004 wins over the status it travels with.
  if (envelope?.code === RELOGIN_CODE) return { ok: false, action: { kind: 'relogin', message } };
  if (status === 401) return { ok: false, action: { kind: 'unauthorised' } };
  if (status === 403) return { ok: false, action: { kind: 'sessionEnded', code: envelope?.code, message } };
  if (status === 429) {
    return {
      ok: false,
      action: { kind: 'rateLimited', code: envelope?.code, message, retryAfterSeconds: parseRetryAfter(retryAfter, now) },
    };
  }
  if (!envelope) return { ok: false, action: status === 404 ? { kind: 'notFound' } : { kind: 'http', status } };
  if (envelope.code === SUCCESS && status >= 200 && status < 300) return { ok: true, data: envelope.data };
  // A failed status with code 0 should not happen; treat it as a bare HTTP failure rather than success.
  if (envelope.code === SUCCESS) return { ok: false, action: { kind: 'http', status } };
  return { ok: false, action: { kind: 'business', code: envelope.code, message } };
}

/** Where the failure sends the user, given the page they are on; undefined means stay. */
export function failureDestination(action: FailureAction, currentPath: string, loginPath: string): string | undefined {
  // On the /user pages the user is signing in already: moving them would switch their tab or lose the form.
  const onUserPages = currentPath === '/user' || currentPath.startsWith('/user/');
  switch (action.kind) {
    case 'relogin':
      return onUserPages ? undefined : '/user/login';
    case 'unauthorised':
    case 'sessionEnded':
      return onUserPages ? undefined : loginPath;
    default:
      return undefined;
  }
}

/** Whether the failure ends the stored session (the token is dropped). */
export function endsSession(action: FailureAction): boolean {
  return action.kind === 'relogin' || action.kind === 'unauthorised' || action.kind === 'sessionEnded';
}
