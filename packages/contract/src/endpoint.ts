import type { Static, TSchema } from 'typebox';
import type { ErrorCode } from './errors.ts';
import type { EndpointObjects } from './resources.ts';
import type { Access } from './roles.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One call of the API, described once: the server registers its route from it, the web client and the tests
 * call through it, and the OpenAPI document is generated from it (docs/api.md "The endpoint table").
 */
export interface EndpointSpec {
  method: HttpMethod;
  /** The full path; `:name` segments are path parameters (`/api4/gateway/v1/detail/:id`). */
  path: string;
  /** One line for the OpenAPI document. */
  summary: string;
  /** What else a caller must know: rules, and which codes mean what. The access rule is appended to it. */
  description?: string;
  /** The OpenAPI tag, one per domain. */
  tags: readonly string[];
  /** Who may call it; the server refuses everybody else before the handler runs (contract roles.ts). */
  access: Access;
  /** Which ids of the request name which objects; the server checks them against the caller before the handler. */
  objects?: EndpointObjects;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** The `data` of the success envelope; for a `raw` endpoint, the whole answer. */
  response: TSchema;
  /**
   * `json` (the default): JSON in, the `{ code, msg, data }` envelope out.
   * `upload`: a multipart/form-data request (the body schema describes its plain fields); enveloped answer.
   * `raw`: the answer is not enveloped (a file, a picture, the host configuration).
   */
  kind?: 'json' | 'upload' | 'raw';
  /** MIME types a `raw` endpoint answers with, when not JSON. */
  produces?: readonly string[];
  /** The business codes the call answers besides the generic ones (documentation, and the role matrix). */
  errors?: readonly ErrorCode[];
}

/** Declares an endpoint; `const` keeps every literal (path, access, schemas) in its type. */
export function endpoint<const E extends EndpointSpec>(spec: E): E {
  return spec;
}

type Part<S, Name extends string> = S extends TSchema
  ? Partial<Static<S>> extends Static<S>
    ? { [K in Name]?: Static<S> }
    : { [K in Name]: Static<S> }
  : { [K in Name]?: undefined };

/** What a caller passes: `params`, `query` and `body` as the endpoint's schemas type them (an upload: FormData). */
export type EndpointInput<E extends EndpointSpec> = Part<E['params'], 'params'> &
  Part<E['query'], 'query'> &
  (E['kind'] extends 'upload' ? { body: FormData } : Part<E['body'], 'body'>);

/** The `data` of a successful answer (the whole answer of a `raw` endpoint). */
export type EndpointAnswer<E extends EndpointSpec> = Static<E['response']>;

/** Whether an endpoint may be called without any input at all. */
export type InputOptional<E extends EndpointSpec> = Partial<EndpointInput<E>> extends EndpointInput<E> ? true : false;

/** The path with its parameters filled in (each one URL-encoded). */
export function endpointPath(e: Pick<EndpointSpec, 'path'>, params?: Record<string, string | number> | undefined): string {
  return e.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${e.path}: parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/** The query string for a query object, `?`-prefixed, or '' when nothing is set. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The URL of a call: path with parameters, then the query. */
export function endpointUrl(e: Pick<EndpointSpec, 'path'>, input: { params?: unknown; query?: unknown } = {}): string {
  return (
    endpointPath(e, input.params as Record<string, string | number> | undefined) +
    queryString(input.query as Record<string, unknown> | undefined)
  );
}

/** The OpenAPI form of an endpoint's path (`/detail/{id}`). */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}
