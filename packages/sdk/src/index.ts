import {
  ENDPOINT_GROUPS,
  LANG_TAGS,
  LIMITS,
  apiKeyReaches,
  endpointUrl,
  type EndpointAnswer,
  type EndpointInput,
  type EndpointSpec,
  type InputOptional,
  type Lang,
} from '@lumigrid/contract';

export * from '@lumigrid/contract';

/** Where and as whom calls go: the server's address and a bearer credential (an API key `lg_...`, or a session token). */
export interface Connection {
  /** The server's address without a trailing slash, as a browser opens it (`https://lumigrid.example.com`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer ...`; none for public endpoints. */
  token?: string;
  /** The language of the messages of refusals (`msg`); the server's default without it. */
  lang?: Lang;
  /** Milliseconds before a call is given up; 30 s (the web client's limit) without it. */
  timeoutMs?: number;
}

/** A call the platform refused: its business code and localised message (docs/api.md "Codes"), or a bare HTTP failure. */
export class LumigridError extends Error {
  /** The business code of the answer's envelope (101002: the key was revoked), or undefined when none came. */
  readonly code: number | undefined;
  /** The envelope's message in the connection's language, or ''. */
  readonly msg: string;
  readonly status: number;
  /** The endpoint called, `METHOD /path` as the table declares it. */
  readonly endpoint: string;
  /** Seconds to wait before calling again, when the server said (101004: too many calls with the key). */
  readonly retryAfterSeconds: number | undefined;

  constructor(failure: { endpoint: string; status: number; code?: number; msg?: string; retryAfterSeconds?: number }) {
    super(`${failure.endpoint} answered ${failure.status} ${failure.code ?? '-'} ${failure.msg ?? ''}`.trimEnd());
    this.name = 'LumigridError';
    this.endpoint = failure.endpoint;
    this.status = failure.status;
    this.code = failure.code;
    this.msg = failure.msg ?? '';
    this.retryAfterSeconds = failure.retryAfterSeconds;
  }
}

function envelopeOf(text: string): { code: number; msg: string; data: unknown } | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && 'code' in parsed && typeof parsed.code === 'number')
      return parsed as { code: number; msg: string; data: unknown };
  } catch {
    // Not JSON (a proxy's error page): the status alone says what went wrong.
  }
  return undefined;
}

/**
 * Calls one endpoint of the contract's table: method, path, input and answer types come from the table. Answers
 * the envelope's `data`; throws LumigridError for any other code. Files (`raw` endpoints) are not read here.
 */
export async function callEndpoint<E extends EndpointSpec>(
  connection: Connection,
  spec: E,
  ...[input]: InputOptional<E> extends true ? [input?: EndpointInput<E>] : [input: EndpointInput<E>]
): Promise<EndpointAnswer<E>> {
  const endpoint = `${spec.method} ${spec.path}`;
  if (spec.kind === 'raw') throw new Error(`${endpoint} answers a file: fetch it yourself with the same Authorization header`);
  const given = (input as { body?: unknown } | undefined)?.body;
  // An upload's FormData sets its own multipart content type with its boundary.
  const form = given instanceof FormData ? given : undefined;
  const body = form ?? (spec.method === 'POST' || spec.method === 'PUT' ? JSON.stringify(given ?? {}) : undefined);
  const response = await fetch(`${connection.baseUrl}${endpointUrl(spec, input ?? {})}`, {
    method: spec.method,
    headers: {
      accept: 'application/json',
      ...(body === undefined || form ? {} : { 'content-type': 'application/json' }),
      ...(connection.token ? { authorization: `Bearer ${connection.token}` } : {}),
      ...(connection.lang ? { 'accept-language': LANG_TAGS[connection.lang] } : {}),
    },
    body,
    signal: AbortSignal.timeout(connection.timeoutMs ?? LIMITS.requestTimeoutMs),
  });
  const envelope = envelopeOf(await response.text());
  if (envelope?.code === 0 && response.ok) return envelope.data as EndpointAnswer<E>;
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
  throw new LumigridError({
    endpoint,
    status: response.status,
    ...(envelope ? { code: envelope.code, msg: envelope.msg } : {}),
    ...(Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {}),
  });
}

type Groups = typeof ENDPOINT_GROUPS;

/** Whether an API key may call an endpoint, read from its declaration as apiKeyReaches reads it; files aside. */
type KeyCallable<E> = E extends { sessionOnly: true }
  ? false
  : E extends { kind: 'raw' }
    ? false
    : E extends { access: 'read' | 'control' | 'write' }
      ? true
      : false;

/** One endpoint as a function of its input. */
export type EndpointCall<E extends EndpointSpec> = (
  ...args: InputOptional<E> extends true ? [input?: EndpointInput<E>] : [input: EndpointInput<E>]
) => Promise<EndpointAnswer<E>>;

type DomainCalls<G> = {
  [N in keyof G as KeyCallable<G[N]> extends true ? N : never]: G[N] extends EndpointSpec ? EndpointCall<G[N]> : never;
};

/**
 * The endpoint table as functions, by domain and name as the table names them (`client.groups.control`): every
 * call an API key reaches. Calls a key never reaches (sign-in, account management, the key calls) are left out.
 */
export type LumigridClient = {
  [D in keyof Groups as keyof DomainCalls<Groups[D]> extends never ? never : D]: DomainCalls<Groups[D]>;
};

/** Whether the client offers an endpoint: a key reaches it and it answers JSON. */
export function keyCallable(spec: EndpointSpec): boolean {
  return apiKeyReaches(spec) && spec.kind !== 'raw';
}

/**
 * A client for an integrator's API key (`lg_...`, docs/api.md "API keys"):
 * `createClient({ baseUrl, apiKey }).alerts.page({ body: { projectId } })`.
 */
export function createClient(options: Omit<Connection, 'token'> & { apiKey: string }): LumigridClient {
  const { apiKey, ...rest } = options;
  const connection: Connection = { ...rest, baseUrl: rest.baseUrl.replace(/\/+$/, ''), token: apiKey };
  const client: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const [domain, group] of Object.entries(ENDPOINT_GROUPS)) {
    for (const [name, spec] of Object.entries(group as Record<string, EndpointSpec>)) {
      if (!keyCallable(spec)) continue;
      (client[domain] ??= {})[name] = (input?: unknown) => callEndpoint(connection, spec, ...([input] as [EndpointInput<EndpointSpec>]));
    }
  }
  return client as unknown as LumigridClient;
}
