import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Value } from 'typebox/value';
import { HostConfigSchema, companyDefaultConfig, normaliseHost, type CompanyCode, type HostConfig } from '@lumigrid/contract';
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
export function createBrandingService(deps: { brandingDir: string; webDist: string; company: CompanyCode; logger: FastifyBaseLogger }) {
  const { brandingDir, company, logger } = deps;
  const warned = new Set<string>();

  function hostDir(host: string): string | undefined {
    const bare = normaliseHost(host);
    return HOST_PATTERN.test(bare) && !bare.includes('..') ? join(brandingDir, 'hosts', bare) : undefined;
  }

  return {
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

    contentType: (name: string) => ASSET_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
  };
}

export type BrandingService = ReturnType<typeof createBrandingService>;
