import {
  ACCESS_TEXT,
  Envelope,
  type Access,
  type EndpointAnswer,
  type EndpointObjects,
  type EndpointInput,
  type EndpointSpec,
  type HttpMethod,
} from '@lumigrid/contract';
import type { FastifyReply, FastifyRequest, RouteOptions, preValidationHookHandler } from 'fastify';
import { AppError } from './app-error.ts';
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
  preValidation?: preValidationHookHandler;
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
    const auth = await authenticate(token);
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

/** The route schema of an endpoint: what Fastify validates and what the OpenAPI document shows. */
export function routeSchema(spec: EndpointSpec) {
  const description = [spec.description, ACCESS_TEXT[spec.access], spec.errors?.length ? `Codes: ${spec.errors.join(', ')}.` : '']
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
export function endpointRoutes(app: App, authenticate: Authenticate, requireObjects: RequireObjects) {
  function route<E extends EndpointSpec>(spec: E, handler: EndpointHandler<E>, options: EndpointRouteOptions = {}) {
    const onRequest = [...(spec.kind === 'raw' ? [] : [noStore]), ...(spec.access === 'public' ? [] : [guard(spec, authenticate)])];
    const routeOptions: RouteOptions = {
      method: spec.method satisfies HttpMethod,
      url: spec.path,
      schema: routeSchema(spec),
      onRequest,
      ...(options.preValidation ? { preValidation: options.preValidation } : {}),
      ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
      ...(spec.objects && spec.access !== 'public' ? { preHandler: objectGuard(spec, spec.objects, requireObjects) } : {}),
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
        if (spec.kind === 'raw') return reply.sent ? reply : answer;
        return ok(request, answer);
      },
    };
    app.route(routeOptions);
  }
  /** Registers endpoints inside their own plugin scope (a parser only they accept, such as multipart). */
  route.scope = (plugin: (scopedRoute: typeof route, scope: App) => Promise<void>) =>
    app.register(async (scope) => plugin(endpointRoutes(scope, authenticate, requireObjects), scope));
  return route;
}

export type RouteOf = ReturnType<typeof endpointRoutes>;
