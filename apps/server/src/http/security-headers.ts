import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

/**
 * Headers on every answer: a strict policy (scripts only from this origin, never inline; no framing),
 * nosniff, no referrer across origins. antd writes its styles into <style> elements at run time, so styles
 * may be inline; everything else is 'self'. The real-time channel is same-origin (SockJS, WebSocket).
 */
const securityHeaders = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // The real-time client beats its heartbeat from a worker it makes from a blob (hidden tabs throttle timers).
      workerSrc: ["'self'", 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", 'ws:', 'wss:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
  // Uploaded floor plans and branding images are shown by this origin only.
  crossOriginResourcePolicy: { policy: 'same-origin' as const },
};
/** The camera for this origin only: the Add gateway dialog reads the gateway's label with it. Nothing framed gets it. */
const PERMISSIONS_POLICY = 'camera=(self), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()';

/**
 * The headers above that only a document or a worker reads (its policy, framing, opener, referrer for what it
 * loads, features, HSTS, which every page's answer carries). A script or stylesheet the browser asks for as one
 * (`Sec-Fetch-Dest`, which a page cannot set) keeps nosniff and the resource policy: the plan loads some thirty
 * scripts, each carrying about 1 KB of these headers otherwise.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
const SUBRESOURCE_TYPES: Record<string, RegExp> = { script: /^(text|application)\/javascript\b/, style: /^text\/css\b/ };

/** A script loaded by a script tag or import, or a stylesheet, that is one (not a worker, page or error answer). */
function isSubresource(request: FastifyRequest, reply: FastifyReply): boolean {
  const type = SUBRESOURCE_TYPES[String(request.headers['sec-fetch-dest'])];
  return type !== undefined && type.test(String(reply.getHeader('content-type') ?? ''));
}

/** Sets the headers on an answer no hook sees: errors Fastify raises before routing (frameworkErrors). */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  helmet(securityHeaders)(request.raw, reply.raw, () => undefined);
  reply.header('permissions-policy', PERMISSIONS_POLICY);
}

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, securityHeaders);
  // Helmet has no Permissions-Policy: the app needs no microphone, location or payment, and the camera only itself.
  app.addHook('onSend', async (request, reply) => {
    if (!isSubresource(request, reply)) {
      reply.header('permissions-policy', PERMISSIONS_POLICY);
      return;
    }
    for (const name of DOCUMENT_ONLY_HEADERS) {
      reply.removeHeader(name);
      reply.raw.removeHeader(name);
    }
  });
}
