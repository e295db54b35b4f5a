import { nestByParent, type Nested, type ProjectTree, type TreeBuilding, type TreeProject } from '@lumigrid/contract/browser';

interface Linked {
  id: string;
  parentId: string | null;
  name: string;
}

/** The ids of an item and everything below it: what cannot become its parent. */
export function selfAndDescendants<T extends Linked>(items: T[], rootId: string): Set<string> {
  const out = new Set<string>([rootId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const item of items) {
      if (item.parentId !== null && out.has(item.parentId) && !out.has(item.id)) {
        out.add(item.id);
        grew = true;
      }
    }
  }
  return out;
}

/** A TreeSelect node. */
export interface ParentOption {
  value: string;
  title: string;
  disabled?: boolean;
  children: ParentOption[];
}

/** Options of a "parent" picker: the items nested by parent, with an item and its descendants disabled. */
export function parentOptions<T extends Linked>(items: T[], editingId?: string): ParentOption[] {
  const blocked = editingId ? selfAndDescendants(items, editingId) : new Set<string>();
  const toOption = (node: Nested<T>): ParentOption => ({
    value: node.id,
    title: node.name,
    disabled: blocked.has(node.id) || undefined,
    children: node.children.map(toOption),
  });
  return nestByParent(items).map(toOption);
}

/** Every item in tree order (parents before their children) with the names of its ancestors. */
export function withPaths<T extends Linked>(items: T[]): Array<{ item: T; path: string[] }> {
  const out: Array<{ item: T; path: string[] }> = [];
  const walk = (nodes: Array<Nested<T>>, above: string[]) => {
    for (const node of nodes) {
      const { children, ...rest } = node;
      const path = [...above, node.name];
      out.push({ item: rest as unknown as T, path });
      walk(children, path);
    }
  };
  walk(nestByParent(items), []);
  return out;
}

/** A Cascader option: project > building > map. */
export interface MapPathOption {
  value: string;
  label: string;
  disabled?: boolean;
  children?: MapPathOption[];
}

/** The separator between a parent's and a child's name in one Cascader label. */
export const PATH_SEPARATOR = ' / ';

/**
 * The three Cascader levels of the device map. Sub-projects and sub-buildings are listed flat, each
 * labelled with its ancestors, so every map is exactly three steps away; branches without maps are disabled.
 */
export function mapPathOptions(tree: ProjectTree | undefined): MapPathOption[] {
  if (!tree) return [];
  return withPaths<TreeProject>(tree.projects).map(({ item: project, path }) => {
    const builds = withPaths<TreeBuilding>(project.builds).map(({ item: build, path: buildPath }) => {
      const maps = build.maps.map((map) => ({ value: map.id, label: map.name }));
      return { value: build.id, label: buildPath.join(PATH_SEPARATOR), disabled: maps.length === 0 || undefined, children: maps };
    });
    const hasMaps = builds.some((build) => !build.disabled);
    return { value: project.id, label: path.join(PATH_SEPARATOR), disabled: !hasMaps || undefined, children: builds };
  });
}

export type MapPath = [projectId: string, buildId: string, mapId: string];

/** Whether the path names a map that is in the tree, at that place. */
export function pathExists(tree: ProjectTree, path: readonly string[]): path is MapPath {
  if (path.length !== 3) return false;
  const project = tree.projects.find((p) => p.id === path[0]);
  const build = project?.builds.find((b) => b.id === path[1]);
  return Boolean(build?.maps.some((m) => m.id === path[2]));
}

/** Where a map sits in the tree. */
export function pathOfMap(tree: ProjectTree, mapId: string): MapPath | undefined {
  for (const project of tree.projects) {
    for (const build of project.builds) {
      if (build.maps.some((map) => map.id === mapId)) return [project.id, build.id, mapId];
    }
  }
  return undefined;
}

/** The map to show first in a project: its default map, else the first map of its first building with maps. */
export function firstMapOf(project: TreeProject): MapPath | undefined {
  const ordered = [...project.builds].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  for (const build of ordered) {
    const map = build.maps.find((m) => m.isDefault) ?? build.maps[0];
    if (map) return [project.id, build.id, map.id];
  }
  return undefined;
}

/** The map with the most devices placed on it; else the first with a floor plan; undefined when none has either. */
export function liveliestMap(tree: ProjectTree): MapPath | undefined {
  let best: { path: MapPath; devices: number } | undefined;
  let firstWithPlan: MapPath | undefined;
  for (const project of tree.projects) {
    for (const build of project.builds) {
      for (const map of build.maps) {
        const path: MapPath = [project.id, build.id, map.id];
        if (map.deviceCount > (best?.devices ?? 0)) best = { path, devices: map.deviceCount };
        if (map.image && !firstWithPlan) firstWithPlan = path;
      }
    }
  }
  return best?.path ?? firstWithPlan;
}

/**
 * The map the device map opens on: the remembered path when it still exists; else the first map of the
 * remembered project; else, on a first visit, the map with the most devices (or the first with a floor
 * plan), so a newcomer sees a site rather than the empty default map; else the default project's map; else
 * the first project with a map.
 */
export function initialMapPath(tree: ProjectTree | undefined, remembered: { path?: string[]; projectId?: string }): MapPath | undefined {
  if (!tree) return undefined;
  if (remembered.path && pathExists(tree, remembered.path)) return remembered.path;
  const byId = (projectId: string | undefined) => tree.projects.find((p) => p.id === projectId);
  const rememberedProject = byId(remembered.projectId);
  const fromProject = rememberedProject ? firstMapOf(rememberedProject) : undefined;
  if (fromProject) return fromProject;
  const lively = liveliestMap(tree);
  if (lively) return lively;
  const fallback = tree.projects.find((p) => p.isDefault);
  const fromDefault = fallback ? firstMapOf(fallback) : undefined;
  if (fromDefault) return fromDefault;
  for (const project of tree.projects) {
    const path = firstMapOf(project);
    if (path) return path;
  }
  return undefined;
}
