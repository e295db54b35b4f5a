import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allEndpoints } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Harness } from '../test/harness.ts';

/** What every answer must carry, and the policy's key directives. */
function expectSecurityHeaders(headers: Record<string, unknown>, where: string) {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp, where).toContain("frame-ancestors 'none'");
  if (csp.startsWith("default-src 'none'") && !csp.includes('script-src')) {
    // A picture that runs nothing at all (the app icon): stricter than the app's policy.
  } else {
    expect(csp, where).toContain("script-src 'self'");
    expect(csp, where).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp, where).toContain("object-src 'none'");
    // The STOMP heartbeat worker comes from a blob; scripts still come only from the server.
    expect(csp, where).toContain("worker-src 'self' blob:");
  }
  expect(headers['x-frame-options'], where).toBe('DENY');
  expect(headers['x-content-type-options'], where).toBe('nosniff');
  expect(headers['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
  // The camera for the app's own pages (reading gateway labels), for no one else.
  expect(String(headers['permissions-policy'] ?? ''), where).toContain('camera=(self)');
  expect(String(headers['permissions-policy'] ?? ''), where).toContain('microphone=()');
}

describe('security headers', () => {
  let h: Harness;
  let webDist: string;

  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'lumigrid-web-'));
    writeFileSync(
      join(webDist, 'index.html'),
      '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head></html>',
    );
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'assets', 'app-0123abcd.js'), 'document.title = "x";');
    writeFileSync(join(webDist, 'assets', 'app-0123abcd.css'), 'body { margin: 0 }');
    h = await startApp('pglite', { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await h?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('are on the answer of every endpoint of the table, refused or not', async () => {
    for (const spec of allEndpoints()) {
      const res = await h.app.inject({ method: spec.method, url: spec.path.replace(/:(\w+)/g, '1') });
      expectSecurityHeaders(res.headers, `${spec.method} ${spec.path} (${res.statusCode})`);
    }
  });

  it('forbid keeping any enveloped answer (tokens, one user\u2019s data), refused or not', async () => {
    for (const spec of allEndpoints().filter((e) => e.kind !== 'raw')) {
      const res = await h.app.inject({ method: spec.method, url: spec.path.replace(/:(\w+)/g, '1') });
      expect(res.headers['cache-control'], `${spec.method} ${spec.path} (${res.statusCode})`).toBe('no-store');
    }
  });

  it('are on pages, unknown API paths and requests the router cannot read', async () => {
    for (const url of ['/', '/device/control', '/api4/nothing/here', '/api4/%00%ff', '/healthz']) {
      const res = await h.app.inject({ method: 'GET', url });
      expectSecurityHeaders(res.headers, `GET ${url} (${res.statusCode})`);
    }
  });

  it('leave what only a page or worker reads off scripts and stylesheets loaded as such, and keep nosniff', async () => {
    for (const [file, dest] of [
      ['app-0123abcd.js', 'script'],
      ['app-0123abcd.css', 'style'],
    ] as const) {
      const url = `/assets/${file}`;
      const res = await h.app.inject({ method: 'GET', url, headers: { 'sec-fetch-dest': dest } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      for (const name of [
        'content-security-policy',
        'x-frame-options',
        'referrer-policy',
        'permissions-policy',
        'strict-transport-security',
      ]) {
        expect(res.headers[name], `${url} ${name}`).toBeUndefined();
      }
      // Run as a worker, opened as a page, or asked for by no browser: the whole set.
      for (const other of ['worker', 'document', undefined]) {
        const full = await h.app.inject({ method: 'GET', url, headers: other ? { 'sec-fetch-dest': other } : {} });
        expectSecurityHeaders(full.headers, `GET ${url} as ${other ?? 'nothing'}`);
      }
    }
    // A page or an error answered to a script tag keeps the whole set.
    for (const url of ['/device/control', '/assets/none-0123abcd.js']) {
      const res = await h.app.inject({ method: 'GET', url, headers: { 'sec-fetch-dest': 'script' } });
      expectSecurityHeaders(res.headers, `GET ${url} as a script (${res.statusCode})`);
    }
  });

  it('let the API documentation page run under its own policy', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toContain('script-src');
  });
});
