import fastifySwagger, { type SwaggerOptions } from '@fastify/swagger';
import { API_VERSION, allEndpoints } from '@lumigrid/contract';
import Fastify from 'fastify';
import { routeSchema } from './endpoint-route.ts';

/** The OpenAPI document's frame; the paths come from the routes, each documented by routeSchema. */
export const OPENAPI_OPTIONS = {
  openapi: {
    info: { title: 'Lumigrid API', version: API_VERSION, description: 'See docs/api.md for the envelope, codes and statuses.' },
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
  },
} satisfies SwaggerOptions;

/** An OpenAPI 3 document as far as the snapshot check reads it. */
export interface OpenApiDocument {
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/**
 * The document the server serves at /api/docs/json, made without a database: the endpoint table's routes with
 * their schemas on a bare Fastify (api-surface.test.ts holds the two equal). For the checked-in snapshot.
 */
export async function openApiDocument(): Promise<OpenApiDocument> {
  const app = Fastify({ logger: false });
  await app.register(fastifySwagger, OPENAPI_OPTIONS);
  for (const spec of allEndpoints())
    app.route({ method: spec.method, url: spec.path, schema: routeSchema(spec), handler: async () => null });
  await app.ready();
  const document = app.swagger() as unknown as OpenApiDocument;
  await app.close();
  return document;
}
