import {
  ACCESS_TEXT,
  API_KEY_SCOPES,
  apiKeyMayCall,
  apiKeyReaches,
  Envelope,
  type Access,
  type EndpointAnswer,
  type EndpointObjects,
  type EndpointInput,
  type EndpointSpec,
  type HttpMethod,
  isAudited,
} from '@lumigrid/contract';
import type {
  FastifyReply,
  FastifyRequest,
  RouteOptions,
  onResponseHookHandler,
  preHandlerHookHandler,
  preValidationAsyncHookHandler,
  preValidationHookHandler,
} from 'fastify';
import { AppError } from './app-error.ts';
import { auditDraft, auditTargets, deletes, editedFields, parseTarget, type AuditSink } from './audit-entry.ts';
import { assertMay } from './authority.ts';
import { bearerToken, caller, type AuthContext } from './auth.ts';
import { ok } from './envelope.ts';
import { BEARER, type Authenticate } from './guards.ts';
import type { App } from './types.ts';

/** What a handler receives: the caller (absent only on public endpoints) and the validated input. */
export type EndpointContext<E extends EndpointSpec> = {
  auth: E['access'] extends 'public' ? AuthContext | undefined : AuthContext;
  params: NonNullable<EndpointInput<E>['params']>;
  query: NonNullable<EndpointInput<E>['query']>;
  body: E['kind'] extends 'upload' ? Record<string, string | undefined> : NonNullable<EndpointInput<E>['body']>;
  request: FastifyRequest;
  reply: FastifyReply;
};

export type EndpointHandler<E extends EndpointSpec> = (context: EndpointContext<E>) => Promise<EndpointAnswer<E>>;

/** Route options an endpoint may need beyond its table entry (an upload reads its parts before validation). */
export interface EndpointRouteOptions {
  preValidation?: preValidationHookHandler | preValidationAsyncHookHandler;
  bodyLimit?: number;
}

/**
 * Enveloped answers are one user's data, and the sign-in's carries a token: no browser or proxy may keep
 * them. Set before anything else runs, so refusals carry it too; a route whose answer may be cached (the
 * mobile apps' public news list) sets its own.
 */
async function noStore(_request: FastifyRequest, reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
}

/** Resolves the bearer token (250004 without one) and refuses callers whose authority the endpoint does not admit (110003). */
function guard(spec: EndpointSpec, authenticate: Authenticate) {
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw new AppError(250004);
    const auth = await authenticate(token, { spec, ip: request.ip });
    request.auth = auth;
    assertMay(auth, spec.access);
  };
}

const envelopes = new WeakMap<EndpointSpec['response'], ReturnType<typeof Envelope>>();

/** One envelope schema object per answer schema, so that its compiled serializer is found again (validator.ts). */
function envelopeOf(response: EndpointSpec['response']) {
  let envelope = envelopes.get(response);
  if (!envelope) {
    envelope = Envelope(response);
    envelopes.set(response, envelope);
  }
  return envelope;
}

/** The access module's check of the ids an endpoint declares (modules/access): 110011 for any id not the caller's. */
export type RequireObjects = (
  auth: AuthContext,
  permission: Access,
  objects: EndpointObjects,
  input: { params?: unknown; query?: unknown; body?: unknown },
) => Promise<void>;

/** Refuses, after validation and before the handler, a request naming objects the caller may not touch. */
function objectGuard(spec: EndpointSpec, objects: EndpointObjects, requireObjects: RequireObjects) {
  return async (request: FastifyRequest) => {
    await requireObjects(caller(request), spec.access, objects, { params: request.params, query: request.query, body: request.body });
  };
}

/**
 * The audit trail's two hooks on an audited endpoint. Before the handler, what the handler may remove is read
 * (not awaited: the handler does not wait for it): a deletion's project, an edit's old values. Once the answer
 * has gone out, the entry is handed to the writer, which stores it in the background. Neither can fail the call.
 */
function auditHooks(spec: EndpointSpec, sink: AuditSink, now: () => Date) {
  const lookup: preHandlerHookHandler = (request, _reply, done) => {
    const targets = auditTargets(spec, { params: request.params, query: request.query, body: request.body });
    if (targets.length > 0 && deletes(spec)) request.auditProject = sink.projectOf(targets).catch(() => null);
    const edited = spec.audit?.before && targets.map(parseTarget).find((t) => t?.kind === spec.audit?.before);
    const fields = editedFields(request.body);
    if (edited && fields.length > 0) request.auditBefore = sink.valuesOf(edited.kind, edited.id, fields).catch(() => null);
    done();
  };
  const record: onResponseHookHandler = (request, _reply, done) => {
    try {
      sink.record(auditDraft(spec, request, now()));
    } catch (err) {
      request.log.error({ err, endpoint: spec.path }, 'audit entry not recorded');
    }
    done();
  };
  return { lookup, record };
}

/** The id a call answered (the object it created or saved), when its answer is an object with one. */
function answerId(answer: unknown): string | undefined {
  if (answer === null || typeof answer !== 'object' || !('id' in answer)) return undefined;
  return typeof answer.id === 'string' ? answer.id : undefined;
}

/** The sentence on API keys an integrator reads in the OpenAPI document (docs/api.md "API keys"). */
function apiKeyText(spec: EndpointSpec): string {
  if (spec.access === 'public') return '';
  if (!apiKeyReaches(spec)) return 'API keys cannot call it (101005).';
  const scopes = API_KEY_SCOPES.filter((scope) => apiKeyMayCall(spec, scope));
  return `API keys of scope ${scopes.join(' or ')} may call it.`;
}

/** The route schema of an endpoint: what Fastify validates and what the OpenAPI document shows. */
export function routeSchema(spec: EndpointSpec) {
  const description = [
    spec.description,
    ACCESS_TEXT[spec.access],
    apiKeyText(spec),
    spec.errors?.length ? `Codes: ${spec.errors.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    tags: [...spec.tags],
    summary: spec.summary,
    description,
    ...(spec.access === 'public' ? {} : { security: BEARER }),
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.query ? { querystring: spec.query } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    ...(spec.kind === 'upload' ? { consumes: ['multipart/form-data'] } : {}),
    ...(spec.produces ? { produces: [...spec.produces] } : {}),
    response: { 200: spec.kind === 'raw' ? spec.response : envelopeOf(spec.response) },
  };
}

/**
 * Registers the routes of a module from the endpoint table: `route(endpoint, handler)` declares nothing
 * else, so method, path, schemas, access and documentation come from packages/contract alone.
 */
export function endpointRoutes(
  app: App,
  authenticate: Authenticate,
  requireObjects: RequireObjects,
  audit?: { sink: AuditSink; now: () => Date },
) {
  function route<E extends EndpointSpec>(spec: E, handler: EndpointHandler<E>, options: EndpointRouteOptions = {}) {
    const onRequest = [...(spec.kind === 'raw' ? [] : [noStore]), ...(spec.access === 'public' ? [] : [guard(spec, authenticate)])];
    const hooks = audit && isAudited(spec) ? auditHooks(spec, audit.sink, audit.now) : undefined;
    const preHandler = [
      ...(spec.objects && spec.access !== 'public' ? [objectGuard(spec, spec.objects, requireObjects)] : []),
      ...(hooks ? [hooks.lookup] : []),
    ];
    const routeOptions: RouteOptions = {
      method: spec.method satisfies HttpMethod,
      url: spec.path,
      schema: routeSchema(spec),
      onRequest,
      ...(options.preValidation ? { preValidation: options.preValidation } : {}),
      ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
      ...(preHandler.length > 0 ? { preHandler } : {}),
      ...(hooks ? { onResponse: hooks.record } : {}),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const context = {
          auth: request.auth,
          params: request.params ?? {},
          query: request.query ?? {},
          body: request.body ?? {},
          request,
          reply,
        } as EndpointContext<E>;
        const answer = await handler(context);
        if (hooks) request.auditAnswerId = answerId(answer);
        if (spec.kind === 'raw') return reply.sent ? reply : answer;
        return ok(request, answer);
      },
    };
    app.route(routeOptions);
  }
  /** Registers endpoints inside their own plugin scope (a parser only they accept, such as multipart). */
  route.scope = (plugin: (scopedRoute: typeof route, scope: App) => Promise<void>) =>
    app.register(async (scope) => plugin(endpointRoutes(scope, authenticate, requireObjects, audit), scope));
  return route;
}

export type RouteOf = ReturnType<typeof endpointRoutes>;
