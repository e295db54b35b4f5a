import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Value } from 'typebox/value';
import {
  APP_ICON_FILE,
  DEFAULT_LANG,
  HostConfigSchema,
  LANG_TAGS,
  brandingFor,
  companyDefaultConfig,
  endpointPath,
  brandingEndpoints,
  normaliseHost,
  type CompanyCode,
  type HostConfig,
  type WebManifest,
} from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';

const HOST_PATTERN = /^[a-z0-9][a-z0-9.-]{0,252}$/;
const ASSET_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.(svg|png|jpe?g|ico|webp)$/i;

export const ASSET_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
};

/**
 * Per-host branding (spec sections 1 and 7). A host's folder under BRANDING_DIR/hosts holds config.txt and
 * its pictures; a host with no folder, or a broken file, silently gets its company's defaults.
 */
/** The product's primary colour (apps/web theme): the installed app's title bar and a tile without a picture. */
export const THEME_COLOUR = '#1668dc';
/** A picture bigger than this is not inlined into the app icon; the tile shows the brand's initial instead. */
const MAX_INLINED_ICON_BYTES = 256 * 1024;

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * A 512-unit square tile: the host's own picture inlined (an SVG shown as an image loads nothing else) in the
 * middle 75 %, inside the safe circle of a maskable icon; without a picture, the brand's first letter.
 */
export function appIconSvg(name: string, picture: { type: string; bytes: Buffer } | undefined): string {
  const body = picture
    ? `<rect width="512" height="512" fill="#ffffff"/><image x="64" y="64" width="384" height="384" href="data:${picture.type};base64,${picture.bytes.toString('base64')}"/>`
    : `<rect width="512" height="512" fill="${THEME_COLOUR}"/><text x="256" y="256" dy=".35em" text-anchor="middle" font-family="sans-serif" font-size="280" fill="#ffffff">${escapeXml(Array.from(name.trim())[0] ?? 'L')}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">${body}</svg>`;
}

export function createBrandingService(deps: { brandingDir: string; webDist: string; company: CompanyCode; logger: FastifyBaseLogger }) {
  const { brandingDir, company, logger } = deps;
  const warned = new Set<string>();

  function hostDir(host: string): string | undefined {
    const bare = normaliseHost(host);
    return HOST_PATTERN.test(bare) && !bare.includes('..') ? join(brandingDir, 'hosts', bare) : undefined;
  }

  const service = {
    async hostConfig(host: string): Promise<{ config: HostConfig; fallback: boolean }> {
      const dir = hostDir(host);
      if (dir) {
        const file = join(dir, 'config.txt');
        try {
          const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
          if (Value.Check(HostConfigSchema, parsed)) return { config: parsed, fallback: false };
          throw new Error('does not match the host configuration schema');
        } catch (error) {
          const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
          if (!missing && !warned.has(file)) {
            warned.add(file);
            logger.warn({ file, reason: (error as Error).message }, 'broken host configuration, using the company default');
          }
        }
      }
      return { config: companyDefaultConfig(company), fallback: true };
    },

    /** The file behind a branding picture name: the host's own, else the company's, else the product's. */
    async assetPath(host: string, name: string): Promise<string | undefined> {
      if (!ASSET_PATTERN.test(name)) return undefined;
      const dir = hostDir(host);
      const candidates = [
        ...(dir ? [join(dir, name)] : []),
        join(brandingDir, 'companies', company, name),
        join(deps.webDist, 'branding', 'default', name),
      ];
      for (const path of candidates) {
        const info = await stat(path).catch(() => undefined);
        if (info?.isFile()) return path;
      }
      return undefined;
    },

    /** The manifest a browser installs the app from on this host, named in the host's own language. */
    async manifest(host: string): Promise<WebManifest> {
      const { config } = await service.hostConfig(host);
      const lang = config.language ?? DEFAULT_LANG;
      const texts = brandingFor(config, lang);
      const bare = normaliseHost(host);
      return {
        id: '/',
        name: texts.name,
        short_name: texts.name,
        ...(texts.title !== texts.name ? { description: texts.title } : {}),
        lang: LANG_TAGS[lang],
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: THEME_COLOUR,
        icons: [{ src: endpointPath(brandingEndpoints.appIcon, { host: bare }), sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      };
    },

    /** The host's icon (a file of its branding, else the company's, else the product's) on a square tile. */
    async appIcon(host: string): Promise<string> {
      const { config } = await service.hostConfig(host);
      const texts = brandingFor(config, config.language ?? DEFAULT_LANG);
      // An icon given as a URL is another origin's (or another path's) and is not inlined; the default stands in.
      const own =
        texts.icon && !texts.icon.includes('/') && texts.icon !== APP_ICON_FILE ? await service.assetPath(host, texts.icon) : undefined;
      const path = own ?? (await service.assetPath(host, 'favicon.svg'));
      const bytes = path ? await readFile(path).catch(() => undefined) : undefined;
      const picture = path && bytes && bytes.length <= MAX_INLINED_ICON_BYTES ? { type: service.contentType(path), bytes } : undefined;
      return appIconSvg(texts.name, picture);
    },

    contentType: (name: string) => ASSET_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
  };
  return service;
}

export type BrandingService = ReturnType<typeof createBrandingService>;
