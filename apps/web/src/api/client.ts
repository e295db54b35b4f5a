import {
  CLIENT_HEADER,
  LANG_TAGS,
  LIMITS,
  endpointPath,
  queryString,
  type EndpointAnswer,
  type EndpointInput,
  type RouteDeclaration,
  type RouteFields,
  type InputOptional,
  type Lang,
} from '@lumigrid/contract/browser';
import { parseJson } from './big-json.ts';
import { endsSession, failureDestination, interpretResponse, type FailureAction } from './envelope.ts';
import { session } from './session.ts';

/** A failed call. `action` says what the client already did about it (message, redirect). */
export class ApiError extends Error {
  readonly action: FailureAction;
  constructor(action: FailureAction, message: string) {
    super(message);
    this.name = 'ApiError';
    this.action = action;
  }
  /** The business code, when the server sent one. */
  get code(): number | undefined {
    return 'code' in this.action ? this.action.code : undefined;
  }
}

/** What the client needs from the running app; set once at start-up by the providers. */
export interface ApiEnvironment {
  lang(): Lang;
  /** The login page for the current mode and last login type. */
  loginPath(): string;
  currentPath(): string;
  navigate(path: string): void;
  /** Shows one failure to the user in their language. */
  notify(action: FailureAction): void;
}

let environment: ApiEnvironment = {
  lang: () => 'en',
  loginPath: () => '/user/login',
  currentPath: () => (typeof window === 'undefined' ? '/' : window.location.pathname),
  navigate: (path) => {
    if (typeof window !== 'undefined') window.location.assign(path);
  },
  notify: () => undefined,
};

export function configureApiClient(env: Partial<ApiEnvironment>): void {
  environment = { ...environment, ...env };
}

/** The BCP 47 tag for Accept-Language; the server maps it back to cn/tc/en/ja. */
export function acceptLanguage(lang: Lang): string {
  return LANG_TAGS[lang];
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Do not show messages or redirect; the caller handles the failure (the error is still thrown). */
  silent?: boolean;
  signal?: AbortSignal;
}

function react(action: FailureAction, silent: boolean): void {
  if (endsSession(action)) session.dropToken();
  if (silent) return;
  environment.notify(action);
  const destination = failureDestination(action, environment.currentPath(), environment.loginPath());
  if (!destination) return;
  // 250004 shows its message for a second before leaving (spec section 7).
  if (action.kind === 'relogin') setTimeout(() => environment.navigate(destination), 1000);
  else environment.navigate(destination);
}

function fail(action: FailureAction, silent: boolean): never {
  react(action, silent);
  const message = 'message' in action && action.message ? action.message : action.kind;
  throw new ApiError(action, message);
}

/** Sends one request with the token, the language and the 30 s timeout; answers the response and its text or bytes. */
async function send<B extends 'text' | 'blob'>(
  path: string,
  options: RequestOptions,
  read: B,
): Promise<{ response: Response; content: B extends 'text' ? string : Blob }> {
  const { method = 'GET', body, query, silent = false, signal } = options;
  const headers: Record<string, string> = {
    Accept: read === 'text' ? 'application/json' : '*/*',
    'Accept-Language': acceptLanguage(environment.lang()),
    // The audit trail tells the web client's calls from other callers of the API.
    [CLIENT_HEADER]: 'web',
  };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  // A FormData body (an upload) sets its own multipart Content-Type with the boundary.
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), LIMITS.requestTimeoutMs);
  const abort = () => timeout.abort();
  signal?.addEventListener('abort', abort);

  try {
    const response = await fetch(path + queryString(query), {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      signal: timeout.signal,
    });
    const content = (read === 'text' ? await response.text() : await response.blob()) as B extends 'text' ? string : Blob;
    return { response, content };
  } catch (error) {
    // A caller's own abort (a query cancelled by React) is not the user's problem.
    if (signal?.aborted) throw error;
    return fail(timeout.signal.aborted ? { kind: 'timeout' } : { kind: 'network' }, silent);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}

/** The one HTTP client: token header, language, 30 s timeout, envelope and error handling of spec section 7. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { response, content: text } = await send(path, options, 'text');
  const silent = options.silent ?? false;
  let parsed: unknown;
  try {
    parsed = text ? parseJson(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const outcome = interpretResponse(response.status, parsed, response.headers.get('Retry-After'));
  if (outcome.ok) return outcome.data as T;
  return fail(outcome.action, silent);
}

/** Options of one call besides its input. */
export type CallOptions = Pick<RequestOptions, 'silent' | 'signal'>;

/**
 * Calls an endpoint of the contract's table: path, method and answer type come from the table, so a change
 * on the server that the browser does not follow fails the type check.
 */
export function call<R extends RouteFields>(
  spec: R,
  ...[input, options]: InputOptional<RouteDeclaration<R>> extends true
    ? [input?: EndpointInput<RouteDeclaration<R>>, options?: CallOptions]
    : [input: EndpointInput<RouteDeclaration<R>>, options?: CallOptions]
): Promise<EndpointAnswer<RouteDeclaration<R>>> {
  const { params, query, body } = (input ?? {}) as { params?: Record<string, string>; query?: RequestOptions['query']; body?: unknown };
  // Signed out (or signing out): a call that needs a token would only fetch a 401 and a red "sign in again";
  // the guard is already taking the user to the sign-in page.
  if (spec.access !== 'public' && !session.token()) return Promise.reject(new ApiError({ kind: 'relogin' }, 'signed out'));
  const sendsBody = spec.method === 'POST' || spec.method === 'PUT';
  return request<EndpointAnswer<RouteDeclaration<R>>>(endpointPath(spec, params), {
    ...options,
    method: spec.method,
    query,
    // A body left out is sent as {}; an explicit null (an endpoint whose body is EmptySchema) as null.
    body: sendsBody && body === undefined ? {} : body,
  });
}

/** A file a raw endpoint answered, with the name the server gave it (Content-Disposition), if any. */
export interface DownloadedFile {
  blob: Blob;
  filename?: string;
}

/** The file name of a Content-Disposition header (filename* in UTF-8 first, then filename). */
export function dispositionFilename(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || undefined;
}

/**
 * Calls a raw endpoint that answers a file (an Excel export): the same token, language, timeout and failure
 * handling as `call`; a refusal still arrives as an envelope and shows its localised message.
 */
export async function callFile<R extends RouteFields & { kind: 'raw' }>(
  spec: R,
  input: EndpointInput<RouteDeclaration<R>>,
  options: CallOptions = {},
): Promise<DownloadedFile> {
  const { params, query, body } = input as { params?: Record<string, string>; query?: RequestOptions['query']; body?: unknown };
  if (spec.access !== 'public' && !session.token()) throw new ApiError({ kind: 'relogin' }, 'signed out');
  const sendsBody = spec.method === 'POST' || spec.method === 'PUT';
  const { response, content } = await send(
    endpointPath(spec, params),
    { ...options, method: spec.method, query, body: sendsBody && body === undefined ? {} : body },
    'blob',
  );
  const isJson = (response.headers.get('Content-Type') ?? '').includes('application/json');
  if (response.ok && !isJson) return { blob: content, filename: dispositionFilename(response.headers.get('Content-Disposition')) };
  let parsed: unknown;
  try {
    parsed = parseJson(await content.text());
  } catch {
    parsed = undefined;
  }
  const outcome = interpretResponse(response.status, parsed, response.headers.get('Retry-After'));
  return fail(outcome.ok ? { kind: 'http', status: response.status } : outcome.action, options.silent ?? false);
}
