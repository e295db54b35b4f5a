import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Sends a generated file as a download: the name twice (ASCII for old clients, UTF-8 for the rest, so Chinese and
 * Japanese names survive), never sniffed, never cached.
 */
export function sendDownload(reply: FastifyReply, file: { body: Readable; mime: string; fileName: string }) {
  const ascii = file.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
  return reply
    .header('content-type', file.mime)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(file.body);
}
