import type { Building, MapInfo, Project } from '@lumigrid/contract';
import { isTimeZone } from '@lumigrid/protocol';
import type { MapRow } from './maps.repo.ts';
import type { BuildingRow, ProjectRow } from './projects.repo.ts';

/** Where a stored floor plan is served (see the image route in maps.routes.ts). */
export const mapImageUrl = (file: string) => `/api4/map/v1/image/${file}`;

const idOrNull = (id: bigint | null) => (id === null ? null : String(id));

export function mapProject(row: ProjectRow): Project {
  return {
    id: String(row.id),
    name: row.name,
    address: row.address,
    parentId: idOrNull(row.parentId),
    longitude: row.longitude,
    latitude: row.latitude,
    carbonFactor: row.carbonFactor,
    isDefault: row.isDefault,
    buildCount: row.buildCount,
    mapCount: row.mapCount,
    timeZone: row.timeZone && isTimeZone(row.timeZone) ? row.timeZone : 'UTC',
    createdAt: row.createdAt.toISOString(),
  };
}

export function mapBuilding(row: BuildingRow): Building {
  return {
    id: String(row.id),
    projectId: String(row.projectId),
    name: row.name,
    parentId: idOrNull(row.parentId),
    isDefault: row.isDefault,
    mapCount: row.mapCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** `deviceCount` comes from the caller: devices live in their own domain. */
export function mapMap(row: MapRow, deviceCount: number): MapInfo {
  return {
    id: String(row.id),
    projectId: String(row.projectId),
    buildId: String(row.buildId),
    name: row.name,
    image: row.imageFile ? mapImageUrl(row.imageFile) : null,
    imageWidth: row.imageWidth,
    imageHeight: row.imageHeight,
    opacity: row.opacity,
    isDefault: row.isDefault,
    deviceCount,
    createdAt: row.createdAt.toISOString(),
  };
}
