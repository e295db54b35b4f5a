import { endpoint } from '../endpoint.ts';
import { HostConfigSchema, HostFileParamsSchema, HostParamsSchema, WebManifestSchema } from '../branding.ts';
import { BinarySchema } from '../projects.ts';

/** Per-host branding (spec section 7 "Configuration and real-time"): read before anyone signs in, not enveloped. */
export const brandingEndpoints = {
  hostConfig: endpoint({
    method: 'GET',
    path: '/test/:host/config.txt',
    tags: ['branding'],
    summary: "A host's branding (not enveloped); the company default when the host has none",
    access: 'public',
    kind: 'raw',
    params: HostParamsSchema,
    response: HostConfigSchema,
  }),
  manifest: endpoint({
    method: 'GET',
    path: '/test/:host/manifest.webmanifest',
    tags: ['branding'],
    summary: "The web app manifest a browser installs the app from, with the host's brand name and icon",
    access: 'public',
    kind: 'raw',
    produces: ['application/manifest+json'],
    params: HostParamsSchema,
    response: WebManifestSchema,
  }),
  appIcon: endpoint({
    method: 'GET',
    path: '/test/:host/app-icon.svg',
    tags: ['branding'],
    summary: "The host's icon centred on a square tile, for the home screen and app lists at any size",
    access: 'public',
    kind: 'raw',
    produces: ['image/svg+xml'],
    params: HostParamsSchema,
    response: BinarySchema,
  }),
  hostFile: endpoint({
    method: 'GET',
    path: '/test/:host/:file',
    tags: ['branding'],
    summary: "A host's branding picture (logo, login background, icon)",
    access: 'public',
    kind: 'raw',
    produces: ['image/svg+xml', 'image/png', 'image/jpeg', 'image/x-icon', 'image/webp'],
    params: HostFileParamsSchema,
    response: BinarySchema,
  }),
};
