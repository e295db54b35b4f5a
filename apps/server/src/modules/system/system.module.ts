import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import { registerSystemRoutes } from './system.routes.ts';

export function createSystemModule(deps: {
  db: Db;
  config: Pick<Config, 'mode' | 'company' | 'serverIp'>;
  /** Whether this node is stopping: /healthz answers 503 then. */
  draining: () => boolean;
}): DomainModule {
  return { register: (route) => registerSystemRoutes(route, deps) };
}
