import type { FailureAction } from './envelope.ts';

/** Catalogue keys the client's failure messages use. */
export type FailureTextKey =
  | 'error.loginAgain'
  | 'error.sessionExpired'
  | 'error.notFound'
  | 'error.tooMany'
  | 'error.tooManyWait'
  | 'error.http'
  | 'error.business'
  | 'error.network'
  | 'error.timeout';

export type FailureText = { text: string } | { key: FailureTextKey; vars?: Record<string, string | number> } | undefined;

/** What the user reads about a failure: the server's localised msg where there is one, else our own text. */
export function failureText(action: FailureAction): FailureText {
  const server = 'message' in action && action.message ? { text: action.message } : undefined;
  switch (action.kind) {
    case 'relogin':
      return server ?? { key: 'error.loginAgain' };
    case 'unauthorised':
      // A missing or invalid token just leads to the login page (spec section 7).
      return undefined;
    case 'sessionEnded':
      return server ?? { key: 'error.sessionExpired' };
    case 'notFound':
      return { key: 'error.notFound' };
    case 'rateLimited':
      if (server) return server;
      return action.retryAfterSeconds !== undefined
        ? { key: 'error.tooManyWait', vars: { seconds: action.retryAfterSeconds } }
        : { key: 'error.tooMany' };
    case 'business':
      return server ?? { key: 'error.business', vars: { code: action.code } };
    case 'http':
      return { key: 'error.http', vars: { status: action.status } };
    case 'network':
      return { key: 'error.network' };
    case 'timeout':
      return { key: 'error.timeout' };
  }
}
