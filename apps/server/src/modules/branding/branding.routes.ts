import { readFile } from 'node:fs/promises';
import { brandingEndpoints as E } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { BrandingService } from './branding.service.ts';

/** The host configuration and branding pictures (contract endpoints/branding.ts). */
export function registerBrandingRoutes(route: RouteOf, deps: { branding: BrandingService }) {
  const { branding } = deps;

  route(E.hostConfig, async ({ params, reply }) => {
    const { config, fallback } = await branding.hostConfig(params.host);
    reply.header('cache-control', 'no-cache');
    if (fallback) reply.header('x-branding-fallback', 'company');
    return config;
  });

  route(E.manifest, async ({ params, reply }) => {
    reply.header('cache-control', 'no-cache');
    reply.type('application/manifest+json');
    return branding.manifest(params.host);
  });

  route(E.appIcon, async ({ params, reply }) => {
    reply.header('cache-control', 'public, max-age=300');
    // The tile inlines the host's picture as a data: URL and runs nothing.
    reply.header('content-security-policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'");
    return reply.type('image/svg+xml').send(await branding.appIcon(params.host));
  });

  route(E.hostFile, async ({ params, reply }) => {
    const path = await branding.assetPath(params.host, params.file);
    if (!path) throw new AppError(100002);
    reply.header('cache-control', 'public, max-age=300');
    // An SVG served from our origin must not run script, whoever placed it in the branding folder.
    reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    return reply.type(branding.contentType(path)).send(await readFile(path));
  });
}
