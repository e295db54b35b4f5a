import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import { registerSystemRoutes } from './system.routes.ts';

export function createSystemModule(deps: { db: Db; config: Pick<Config, 'mode' | 'company' | 'serverIp'> }): DomainModule {
  return { register: (route) => registerSystemRoutes(route, deps) };
}
