import type { FastifyReply } from 'fastify';

/**
 * Answers a stored picture: cached for good (its name never changes meaning), never sniffed as anything else,
 * and unable to run anything if opened on its own.
 */
export function sendImage(reply: FastifyReply, image: { data: Buffer; contentType: string }) {
  return reply
    .header('content-type', image.contentType)
    .header('cache-control', 'private, max-age=31536000, immutable')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'")
    .send(image.data);
}
