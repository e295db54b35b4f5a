/**
 * The kinds of object an id in a request can name. The server's access module answers, for each kind, which
 * of a set of ids the caller may touch (its account's, and for a limited sub-account those on its projects).
 */
export const RESOURCE_KINDS = [
  'project',
  'building',
  'map',
  'gateway',
  'device',
  'group',
  'scene',
  'virtualDevice',
  'paramTemplate',
  'libraryType',
  'emergencyTask',
  'recipient',
  'pushApp',
  'pushNews',
] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/**
 * Which request fields name objects, by part: `{ params: { id: 'group' } }`. A field holds one id or a list
 * of ids (strings); an absent or null field names nothing. The server refuses the call with 110011 before
 * its handler runs when any id is not one the caller may touch.
 */
export interface EndpointObjects {
  params?: Readonly<Record<string, ResourceKind>>;
  query?: Readonly<Record<string, ResourceKind>>;
  body?: Readonly<Record<string, ResourceKind>>;
}
