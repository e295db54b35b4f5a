import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** Vite names every built asset after its content, so a file under /assets never changes: cache it for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Whether a served file is one of the content-hashed build assets. */
export const isHashedAsset = (path: string) => /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8}(\.[a-z0-9]+)+$/.test(path);

/**
 * Serves the built browser client: the brotli or gzip copy written at build time when the browser accepts it
 * (with `Vary: Accept-Encoding`), hashed assets cached for good, everything else (index.html, branding)
 * revalidated on every load so a new release is picked up at once.
 */
export async function registerWebClient(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) => void reply.header('cache-control', isHashedAsset(path) ? IMMUTABLE : 'no-cache'),
  });
}

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Compresses API answers above the threshold with brotli or gzip, whichever the client prefers. Brotli at
 * quality 4 compresses about as fast as gzip and smaller; the built client is compressed once at build time
 * instead, and an answer that already carries an encoding is left alone.
 */
export async function registerAnswerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
