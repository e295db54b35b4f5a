import type { OwnedReads } from './db/owned-reads.ts';
import { devicesAnyTenant } from './modules/devices/devices.repo.ts';
import { gatewaysAnyTenant } from './modules/gateways/gateways.repo.ts';
import { mapPlaces } from './modules/projects/maps.repo.ts';

/** The owners' read subqueries, handed to the domains below them (db/owned-reads.ts). */
export const ownedReads: OwnedReads = { devices: devicesAnyTenant, gateways: gatewaysAnyTenant, maps: mapPlaces };
