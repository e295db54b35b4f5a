import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import { createImageStore } from '../../lib/image-store.ts';
import { createLibraryRepo } from './library.repo.ts';
import { registerLibraryRoutes } from './library.routes.ts';
import { createLibraryService } from './library.service.ts';

/** The device library (/system/library): the type code table with the account's types, and their icons. */
export function createLibraryModule(deps: { db: Db; config: Pick<Config, 'dataDir'> }) {
  const library = createLibraryService({ repo: createLibraryRepo(deps.db), images: createImageStore(deps.config.dataDir, 'library') });
  return { service: library, register: (route) => registerLibraryRoutes(route, { library }) } satisfies DomainModule &
    Record<string, unknown>;
}
