import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('let the API documentation page run under its own policy', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toContain('script-src');
  });
});
