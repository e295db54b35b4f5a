import { sql } from 'drizzle-orm';
import { LIMITS, systemEndpoints } from '@lumigrid/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { RouteOf } from '../../http/endpoint-route.ts';

export function registerSystemRoutes(
  route: RouteOf,
  deps: { db: Db; config: Pick<Config, 'mode' | 'company' | 'serverIp'>; draining: () => boolean },
) {
  const { db, config } = deps;

  route(systemEndpoints.info, async () => ({
    mode: config.mode,
    version: LIMITS.version,
    company: config.company,
    serverIp: config.serverIp ?? null,
    signUp: config.mode === 'saas',
  }));

  route(systemEndpoints.health, async ({ reply }) => {
    // Answered before the database is asked: a stopping node leaves the load balancer at once (docs/operations.md).
    if (deps.draining()) {
      reply.code(503);
      return { status: 'draining' as const, version: LIMITS.version };
    }
    await db.execute(sql`select 1`);
    return { status: 'ok' as const, version: LIMITS.version };
  });
}
