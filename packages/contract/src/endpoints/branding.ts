import { endpoint } from '../endpoint.ts';
import { HostConfigSchema, HostFileParamsSchema, HostParamsSchema } from '../branding.ts';
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
