import type { Static, TSchema } from 'typebox';
import type { ErrorCode } from './errors.ts';
import type { EndpointObjects, ResourceKind } from './resources.ts';
import type { Access } from './roles.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The version of the API document (OpenAPI `info.version`), apart from the software's: it changes with every
 * breaking change of the document, each listed under its version in docs/openapi/CHANGELOG.md.
 */
export const API_VERSION = '1.0.0';

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
  /** Only a signed-in user's session may call it, never an API key (contract api-keys.ts apiKeyReaches). */
  sessionOnly?: boolean;
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
  /**
   * The audit trail (docs/operations.md "Audit trail"): `record` overrides the rule of isAudited for a call
   * that rule gets wrong, and `targets` names request fields that name objects the route layer does not
   * check (the handler does), so the entry still says what the call touched. `before`: an edit of the object
   * of this kind the request names; the entry keeps the values the request's fields replace.
   */
  audit?: { record?: boolean; targets?: EndpointObjects; before?: ResourceKind };
}

/**
 * Whether the audit trail records calls of an endpoint: every call that may change something or command a
 * device. That is every call but GET (except those of control and write authority: deletions and gateway
 * commands by GET) and but the POST searches, lists and downloads of read authority.
 */
export function isAudited(spec: Pick<EndpointSpec, 'method' | 'access' | 'audit'>): boolean {
  if (spec.audit?.record !== undefined) return spec.audit.record;
  if (spec.method === 'GET') return spec.access === 'control' || spec.access === 'write';
  return spec.access !== 'read';
}

/** Declares an endpoint; `const` keeps every literal (path, access, schemas) in its type. */
export function endpoint<const E extends EndpointSpec>(spec: E): E {
  return spec;
}

/**
 * Declares the edit of one object that the body's `id` names (POST, write authority): the server checks the id
 * before the handler, and the audit entry keeps the values the edit replaces.
 */
export function editEndpoint<const K extends ResourceKind, const E extends Omit<EndpointSpec, 'method' | 'access' | 'objects' | 'audit'>>(
  kind: K,
  spec: E,
) {
  return endpoint({ method: 'POST', access: 'write', audit: { before: kind }, objects: { body: { id: kind } }, ...spec });
}

/** Carries an endpoint's full declaration in a route's type; no value ever has it. */
declare const declaration: unique symbol;

/** What a call needs of an endpoint at run time: method, path, who may call it, the kind of body and answer. */
export type RouteFields = Pick<EndpointSpec, 'method' | 'path' | 'access' | 'kind'>;

/**
 * An endpoint as the browser takes it: its run-time fields, with the full declaration's types but none of its
 * schemas, so the client never builds one (src/endpoint-routes.ts, docs/decisions.md).
 */
export type EndpointRoute<E extends EndpointSpec> = Pick<E, 'method' | 'path' | 'access'> &
  (E extends { kind: infer K } ? { kind: K } : { kind?: undefined }) & { readonly [declaration]?: E };

/** The declaration a route stands for (a union of routes: the union of theirs). */
export type RouteDeclaration<R extends RouteFields> = R extends { readonly [declaration]?: infer E extends EndpointSpec } ? E : never;

/** A table of routes with the same names as a table of endpoints. */
export type RouteTable<T extends Record<string, EndpointSpec>> = { [N in keyof T]: EndpointRoute<T[N]> };

/** The run-time fields of an endpoint, as its route keeps them. */
export function routeOf(spec: EndpointSpec): RouteFields {
  return { method: spec.method, path: spec.path, access: spec.access, ...(spec.kind ? { kind: spec.kind } : {}) };
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
