import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandingEndpoints, companyDefaultConfig, endpointPath, systemEndpoints } from '@lumigrid/contract';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appIconSvg } from './branding.service.ts';
import { startApp, type Harness, api } from '../../test/harness.ts';

describe('per-host branding', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApp('pglite');
  });
  afterAll(async () => h?.close());

  const config = (host: string) => h.app.inject({ method: 'GET', url: `/test/${host}/config.txt` });

  it("answers a host's own file, with a leading www. dropped", async () => {
    for (const host of ['ja.example.com', 'www.ja.example.com', 'JA.Example.com']) {
      const res = await config(host);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-branding-fallback']).toBeUndefined();
      expect(res.json()).toMatchObject({
        name: 'Hikari Cloud',
        language: 'ja',
        loginMode: 'Mail',
        languageChange: false,
        ja: { name: 'ヒカリクラウド' },
      });
    }
  });

  it('falls back silently to the company default for a missing, broken or invalid file', async () => {
    for (const host of ['unknown.example.com', 'broken.example.com', 'invalid.example.com', 'a%2F..%2F..']) {
      const res = await config(host);
      expect(res.statusCode, host).toBe(200);
      expect(res.headers['x-branding-fallback']).toBe('company');
      expect(res.json()).toEqual(companyDefaultConfig('lumigrid'));
    }
  });

  it('uses the configured company for the default, one of which speaks Japanese', async () => {
    const jp = await startApp('pglite', { COMPANY: 'lumigrid-jp' });
    try {
      const res = await jp.app.inject({ method: 'GET', url: '/test/unknown.example.com/config.txt' });
      expect(res.json().language).toBe('ja');
      expect((await api(jp.app, systemEndpoints.info, {})).body.data.company).toBe('lumigrid-jp');
    } finally {
      await jp.close();
    }
  });

  it("serves a host's pictures, then the company's, and refuses path tricks", async () => {
    const own = await h.app.inject({ method: 'GET', url: '/test/ja.example.com/hikari-logo.svg' });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/svg+xml');
    expect(own.body).toContain('fill="red"');
    expect(own.headers['content-security-policy']).toContain("default-src 'none'");

    const company = await h.app.inject({ method: 'GET', url: '/test/ja.example.com/logo.svg' });
    expect(company.statusCode).toBe(200);
    expect(company.body).toContain('<circle');

    for (const url of [
      '/test/ja.example.com/config.json',
      '/test/ja.example.com/..%2Fbroken.example.com%2Fconfig.txt',
      '/test/..%2F..%2F/passwd.svg',
      '/test/ja.example.com/missing.png',
    ]) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });

  const manifestOf = (host: string) => h.app.inject({ method: 'GET', url: endpointPath(brandingEndpoints.manifest, { host }) });
  const iconOf = (host: string) => h.app.inject({ method: 'GET', url: endpointPath(brandingEndpoints.appIcon, { host }) });

  it("answers an installable manifest named after the host's brand, in the host's language", async () => {
    const res = await manifestOf('www.tile.example.com');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/manifest+json');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toEqual({
      id: '/',
      name: '瓦片照明',
      short_name: '瓦片照明',
      description: 'Tile lighting',
      lang: 'zh-CN',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#1668dc',
      icons: [{ src: '/test/tile.example.com/app-icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
    });
    const ja = (await manifestOf('ja.example.com')).json();
    expect([ja.name, ja.lang]).toEqual(['ヒカリクラウド', 'ja']);
    const fallback = (await manifestOf('unknown.example.com')).json();
    expect([fallback.name, fallback.lang]).toEqual(['Lumigrid', 'en']);
  });

  it("draws the app icon from the host's own picture, or the brand's initial when there is none", async () => {
    const own = await iconOf('tile.example.com');
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/svg+xml');
    expect(own.headers['content-security-policy']).toContain("default-src 'none'");
    const tile = readFileSync(join(import.meta.dirname, '../../test/fixtures/branding/hosts/tile.example.com/tile.png'));
    expect(own.body).toContain(`href="data:image/png;base64,${tile.toString('base64')}"`);
    // The test server has no built web client, so no default picture: the brand's initial, escaped.
    const initial = await iconOf('unknown.example.com');
    expect(initial.statusCode).toBe(200);
    expect(initial.body).not.toContain('<image');
    expect(initial.body).toMatch(/<text[^>]*>L<\/text>/);
    expect(appIconSvg('<b>', undefined)).toContain('>&lt;</text>');
  });
});
