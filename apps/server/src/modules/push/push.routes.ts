import { createHash } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import { PUSH_LIMITS, pushEndpoints as E } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { sendImage } from '../../http/send-image.ts';
import { uploadRoute } from '../../http/single-file-upload.ts';
import type { PushService } from './push.service.ts';

/** What one client address may read from the public calls, per node (docs/operations.md "Push news"). */
export interface PublicRateLimit {
  max: number;
  windowMs: number;
}
export const PUBLIC_RATE_LIMIT: PublicRateLimit = { max: 120, windowMs: 60_000 };

/** The push calls of the endpoint table (contract endpoints/push.ts). */
export function registerPushRoutes(route: RouteOf, deps: { push: PushService; publicRateLimit?: PublicRateLimit }) {
  const { push } = deps;

  route(E.apps, ({ auth, query }) => push.apps(auth, query));
  route(E.app, ({ auth, params }) => push.app(auth, params.id));
  route(E.addApp, ({ auth, body }) => push.addApp(auth, body));
  route(E.editApp, ({ auth, body }) => push.editApp(auth, body));
  route(E.deleteApp, ({ auth, body }) => push.deleteApp(auth, body.id));

  route(E.categories, ({ auth }) => push.categories(auth));
  route(E.addCategory, ({ auth, body }) => push.addCategory(auth, body.name));
  route(E.editCategory, ({ auth, body }) => push.editCategory(auth, body.id, body.name));
  route(E.deleteCategory, ({ auth, body }) => push.deleteCategory(auth, body.id));

  route(E.newsList, ({ auth, query }) => push.newsList(auth, query));
  route(E.news, ({ auth, params }) => push.news(auth, params.id));
  route(E.addNews, ({ auth, body }) => push.addNews(auth, body));
  route(E.editNews, ({ auth, body }) => push.editNews(auth, body));
  route(E.deleteNews, ({ auth, body }) => push.deleteNews(auth, body.id));
  route(E.submitNews, ({ auth, body }) => push.submitNews(auth, body.id));
  route(E.withdrawNews, ({ auth, body }) => push.withdrawNews(auth, body.id));

  uploadRoute(route, E.upload, { maxBytes: PUSH_LIMITS.imageBytes, fields: ['purpose'] }, ({ auth, body }, file) => {
    const purpose = body.purpose;
    if (purpose !== 'icon' && purpose !== 'cover' && purpose !== 'content') throw new AppError(100001, 'purpose');
    return push.upload(auth, purpose, file);
  });
  route(E.image, async ({ params, reply }) => {
    const found = await push.imageFile(params.file);
    if (!found) throw new AppError(100002);
    return sendImage(reply, found);
  });

  route(E.reviewList, ({ auth, query }) => push.reviewList(auth, query));
  route(E.reviewDetail, ({ auth, params }) => push.reviewDetail(auth, params.id));
  route(E.pass, ({ auth, body }) => push.pass(auth, body.id));
  route(E.reject, ({ auth, body }) => push.reject(auth, body));

  // The mobile apps' calls: limited per client address, in a scope of their own so no other route is.
  const limit = deps.publicRateLimit ?? PUBLIC_RATE_LIMIT;
  void route.scope(async (scopedRoute, scope) => {
    await scope.register(fastifyRateLimit, {
      max: limit.max,
      timeWindow: limit.windowMs,
      keyGenerator: (request) => request.ip,
      errorResponseBuilder: (_request, context) => new AppError(100003, undefined, Math.max(1, Math.ceil(context.ttl / 1000))),
    });
    // Lists may be cached a minute and revalidated by ETag; a news item is never cached, as each fetch is a view.
    // Before serialisation, so the tag is the same whether the answer is then compressed or not.
    scope.addHook('preSerialization', async (request, reply, payload) => {
      if (reply.statusCode !== 200) return payload;
      if (request.routeOptions.url !== E.publicList.path) {
        reply.header('cache-control', 'no-store');
        return payload;
      }
      const etag = `"${createHash('sha256').update(JSON.stringify(payload)).digest('base64url').slice(0, 27)}"`;
      reply.header('etag', etag).header('cache-control', 'public, max-age=60');
      if (request.headers['if-none-match'] === etag) {
        reply.code(304);
        return '';
      }
      return payload;
    });
    scopedRoute(E.publicList, ({ query }) => push.publicList(query));
    scopedRoute(E.publicNews, ({ params, query }) => push.publicNews(params.id, query.packageName));
  });
}
