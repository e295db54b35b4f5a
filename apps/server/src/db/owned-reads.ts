import type { SubqueryWithSelection } from 'drizzle-orm/pg-core';
import type { devices, gateways, maps } from './schema/index.ts';

/** An owner's subquery of some of its table's columns, under the alias the reader gives it. */
type Shared<Columns, Name extends keyof Columns, Alias extends string = string> = SubqueryWithSelection<Pick<Columns, Name>, Alias>;

/** The gateways' columns other domains read, as `gatewaysAnyTenant` answers them under the alias `Alias`. */
export type SharedGateways<Alias extends string> = Shared<
  (typeof gateways)['_']['columns'],
  'id' | 'tenantId' | 'mapId' | 'mac' | 'name' | 'online' | 'timezone',
  Alias
>;

/**
 * The core tables as their owners share them for reading (`devicesAnyTenant`, `gatewaysAnyTenant`, `mapPlaces`),
 * for the domains that sit below those owners and so may not import them: the access module, which every domain
 * calls; the ingest and energy, which devices and gateways reach; devices and projects, which gateways reach.
 * `owned-reads.ts` beside app.ts builds it from the owners' exports; the reader joins what it is given, in drizzle
 * or in SQL text, as it would the owner's export itself.
 */
export interface OwnedReads {
  devices(alias?: string): Shared<(typeof devices)['_']['columns'], 'id' | 'tenantId' | 'gatewayId' | 'addr' | 'mapId'>;
  /** Typed by its alias, so drizzle tells the joined tables apart. */
  gateways<Alias extends string = 'gw'>(alias?: Alias): SharedGateways<Alias>;
  maps(alias?: string): Shared<(typeof maps)['_']['columns'], 'id' | 'tenantId'>;
}
