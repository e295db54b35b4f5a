import { SESSION_KEYS } from '../../api/session.ts';
import type { KeyValueStorage } from '../../api/session.ts';

/** The current project of the client session (spec section 3); it outlives sign-out like the language. */
export const CURRENT_PROJECT_KEY = 'currentProject';

export interface RememberedMap {
  path?: string[];
  projectId?: string;
}

function browserStorage(): KeyValueStorage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The device map's selection across visits: the project > building > map path (the session's map path
 * list, dropped at sign-out) and the current project.
 */
export function createCurrentMapStore(storage: KeyValueStorage | undefined = browserStorage()) {
  const read = (key: string) => {
    try {
      return storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const write = (key: string, value: string) => {
    try {
      storage?.setItem(key, value);
    } catch {
      // Storage may be refused (private windows); the choice then lasts as long as the page.
    }
  };
  return {
    read(): RememberedMap {
      const projectId = read(CURRENT_PROJECT_KEY) ?? undefined;
      let path: string[] | undefined;
      try {
        const parsed: unknown = JSON.parse(read(SESSION_KEYS.mapPathList) ?? 'null');
        if (Array.isArray(parsed) && parsed.every((part) => typeof part === 'string')) path = parsed;
      } catch {
        path = undefined;
      }
      return { path, projectId };
    },
    remember(path: readonly string[]) {
      write(SESSION_KEYS.mapPathList, JSON.stringify(path));
      if (path[0]) write(CURRENT_PROJECT_KEY, path[0]);
    },
  };
}
