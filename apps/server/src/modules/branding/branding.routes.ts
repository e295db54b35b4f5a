import { readFile } from 'node:fs/promises';
import { Type } from 'typebox';
import { HostConfigSchema } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import type { BrandingService } from './branding.service.ts';

const HostParam = Type.String({ minLength: 1, maxLength: 253, description: 'The host name, a leading www. is dropped' });

export function registerBrandingRoutes(app: App, deps: { branding: BrandingService }) {
  const { branding } = deps;

  app.get('/test/:host/config.txt', {
    schema: {
      tags: ['branding'],
      summary: "A host's branding (not enveloped); the company default when the host has none",
      params: Type.Object({ host: HostParam }),
      response: { 200: HostConfigSchema },
    },
    handler: async (request, reply) => {
      const { config, fallback } = await branding.hostConfig(request.params.host);
      reply.header('cache-control', 'no-cache');
      if (fallback) reply.header('x-branding-fallback', 'company');
      return config;
    },
  });

  app.get('/test/:host/:file', {
    schema: {
      tags: ['branding'],
      summary: "A host's branding picture (logo, login background, icon)",
      params: Type.Object({ host: HostParam, file: Type.String({ minLength: 1, maxLength: 120 }) }),
      produces: ['image/svg+xml', 'image/png', 'image/jpeg', 'image/x-icon', 'image/webp'],
      response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The picture' }) },
    },
    handler: async (request, reply) => {
      const path = await branding.assetPath(request.params.host, request.params.file);
      if (!path) throw new AppError(100002);
      reply.header('cache-control', 'public, max-age=300');
      // An SVG served from our origin must not run script, whoever placed it in the branding folder.
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
      return reply.type(branding.contentType(path)).send(await readFile(path));
    },
  });
}
