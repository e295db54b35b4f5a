import { nestByParent, type BuildingStatus, type Nested, type ProjectStatus, type StatusNode } from '@lumigrid/contract/browser';
import type { StatisticsPlace } from './statistics-charts.ts';

/** One node of the place tree: a project, a building or a map, with its counts and the place it stands for. */
export interface StatusTreeNode {
  key: string;
  place: StatisticsPlace;
  level: 'project' | 'building' | 'map';
  name: string;
  counts: Pick<StatusNode, 'devices' | 'failure' | 'offline' | 'openAlerts'>;
  isLeaf: boolean;
  /** Undefined until the node's level below has been read. */
  children?: StatusTreeNode[];
}

/** A stable key per place, and back: the tree select's values. */
export function placeKey(place: StatisticsPlace): string {
  if (place.mapId) return `map:${place.projectId}:${place.mapId}`;
  if (place.buildId) return `build:${place.projectId}:${place.buildId}`;
  return `project:${place.projectId}`;
}

export function placeOfKey(key: string): StatisticsPlace | undefined {
  const [level, projectId, id] = key.split(':');
  if (!projectId) return undefined;
  if (level === 'project') return { projectId };
  if (level === 'build' && id) return { projectId, buildId: id };
  if (level === 'map' && id) return { projectId, mapId: id };
  return undefined;
}

const countsOf = ({ devices, failure, offline, openAlerts }: StatusNode) => ({ devices, failure, offline, openAlerts });

/**
 * The place tree from the status calls read so far: the account's projects, under each opened project its
 * sub-projects and buildings (sub-buildings nested), under each opened building its maps.
 */
export function statusTree(
  account: ProjectStatus | undefined,
  projects: ReadonlyMap<string, ProjectStatus>,
  buildings: ReadonlyMap<string, BuildingStatus>,
): StatusTreeNode[] {
  const buildingNode = (projectId: string, build: Nested<StatusNode>): StatusTreeNode => {
    const maps = buildings.get(build.id)?.maps;
    const subBuildings = build.children.map((child) => buildingNode(projectId, child));
    return {
      key: placeKey({ projectId, buildId: build.id }),
      place: { projectId, buildId: build.id },
      level: 'building',
      name: build.name,
      counts: countsOf(build),
      isLeaf: false,
      children: maps || subBuildings.length ? [...subBuildings, ...(maps ?? []).map((map) => mapNode(projectId, map))] : undefined,
    };
  };
  const mapNode = (projectId: string, map: StatusNode): StatusTreeNode => ({
    key: placeKey({ projectId, mapId: map.id }),
    place: { projectId, mapId: map.id },
    level: 'map',
    name: map.name,
    counts: countsOf(map),
    isLeaf: true,
  });
  const projectNode = (project: StatusNode): StatusTreeNode => {
    const status = projects.get(project.id);
    return {
      key: placeKey({ projectId: project.id }),
      place: { projectId: project.id },
      level: 'project',
      name: project.name,
      counts: countsOf(status?.project ?? project),
      isLeaf: false,
      children: status && [
        ...status.children.map(projectNode),
        ...nestByParent(status.builds).map((build) => buildingNode(project.id, build)),
      ],
    };
  };
  return (account?.children ?? []).map(projectNode);
}

/** The names from a root down to the node with the key, or undefined when the tree does not hold it. */
export function namePath(nodes: readonly StatusTreeNode[], key: string): string[] | undefined {
  for (const node of nodes) {
    if (node.key === key) return [node.name];
    const below = node.children && namePath(node.children, key);
    if (below) return [node.name, ...below];
  }
  return undefined;
}
