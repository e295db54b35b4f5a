import { LIVE_TOPICS, USER_TOPICS } from '@lumigrid/contract';
import type { AuthContext } from '../http/auth.ts';

/** Whether a caller may subscribe to one destination, given the values of its `{placeholders}`. */
export type DestinationCheck = (auth: AuthContext, params: Record<string, string>) => boolean | Promise<boolean>;

export interface DestinationRoute {
  /** A destination pattern such as `/topic/map/{mapId}`; each placeholder matches one path segment. */
  pattern: string;
  allow: DestinationCheck;
}

/** What the router says about a destination: unknown, or known and allowed or not. */
export type DestinationVerdict = 'unknown' | 'forbidden' | 'allowed';

const SEGMENT = /^[A-Za-z0-9_.-]{1,64}$/;

/** A destination pattern as a regular expression, with the names of its placeholders in order. */
export function compilePattern(pattern: string) {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => {
      const placeholder = /^\{(\w+)\}$/.exec(part);
      if (!placeholder) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(placeholder[1] ?? '');
      return '([^/]+)';
    })
    .join('/');
  return { regex: new RegExp(`^${source}$`), names };
}

/**
 * Maps destinations to permission checks. Every subscription passes one; a destination no route knows is
 * refused. Later topics (per map: `/topic/map/{mapId}` with a check asking the maps service) are one more
 * `add` call in buildApp.
 */
export function createDestinationRouter() {
  const routes: Array<{ regex: RegExp; names: string[]; allow: DestinationCheck }> = [];

  return {
    add(route: DestinationRoute) {
      routes.push({ ...compilePattern(route.pattern), allow: route.allow });
    },

    async check(auth: AuthContext, destination: string): Promise<DestinationVerdict> {
      for (const route of routes) {
        const match = route.regex.exec(destination);
        if (!match) continue;
        const params: Record<string, string> = {};
        for (const [index, name] of route.names.entries()) {
          const value = match[index + 1] ?? '';
          // Only plain ids and names; no dots-only segments, encodings or wildcards reach a check.
          if (!SEGMENT.test(value) || /^\.+$/.test(value)) return 'forbidden';
          params[name] = value;
        }
        return (await route.allow(auth, params)) ? 'allowed' : 'forbidden';
      }
      return 'unknown';
    },
  };
}
export type DestinationRouter = ReturnType<typeof createDestinationRouter>;

/** A user's own topics of spec section 7: `/topic/defective/{userId}` and `/topic/global_message_notice/{userId}`. */
export function addUserTopics(router: DestinationRouter) {
  for (const topic of USER_TOPICS) {
    router.add({ pattern: LIVE_TOPICS[topic].pattern, allow: (auth, { userId }) => userId === String(auth.userId) });
  }
}
