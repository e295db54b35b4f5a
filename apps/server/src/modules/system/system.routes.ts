import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { Envelope, LIMITS, SystemInfoSchema } from '@lumigrid/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { ok } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';

export function registerSystemRoutes(app: App, deps: { db: Db; config: Pick<Config, 'mode' | 'company' | 'serverIp'> }) {
  const { db, config } = deps;

  app.get('/api1/system/v1/info', {
    schema: {
      tags: ['system'],
      summary: 'Mode, version and company, before anyone signs in',
      response: { 200: Envelope(SystemInfoSchema) },
    },
    handler: async (request) =>
      ok(request, {
        mode: config.mode,
        version: LIMITS.version,
        company: config.company,
        serverIp: config.serverIp ?? null,
        signUp: config.mode === 'saas',
      }),
  });

  app.get('/healthz', {
    schema: {
      tags: ['system'],
      summary: 'Liveness and database reachability, for load balancers',
      response: { 200: Type.Object({ status: Type.Literal('ok'), version: Type.String() }) },
    },
    handler: async () => {
      await db.execute(sql`select 1`);
      return { status: 'ok' as const, version: LIMITS.version };
    },
  });
}
