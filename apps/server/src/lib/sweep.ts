import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `sweep` every `everyMs` without keeping the process alive; a failed round is logged as `notSwept` and the
 * next one tries again. Answers the function that stops it (the module's close).
 */
export function sweepEvery(
  everyMs: number,
  sweep: () => Promise<unknown>,
  logger: Pick<FastifyBaseLogger, 'warn'>,
  notSwept: string,
): () => void {
  const timer = setInterval(() => void sweep().catch((err: unknown) => logger.warn({ err }, notSwept)), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
