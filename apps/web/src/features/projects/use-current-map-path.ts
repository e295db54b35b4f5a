import { useEffect, useMemo, useState } from 'react';
import { useProjectTree, WHOLE_TREE } from './api.ts';
import { createCurrentMapStore } from './current-map.ts';
import { initialMapPath, mapPathOptions, pathExists, pathOfMap, type MapPath } from './tree.ts';

/**
 * The map a map page shows, as a project > building > map path: the user's choice while it exists, else the map
 * `namedMapId` names (from the address), else the remembered one, else a sensible first map; kept for the next
 * visit. A tree cached from another page may predate a map just added there, so the path waits for this visit's
 * answer (`fresh`), or the remembered map would look gone and be replaced by the default one.
 */
export function useCurrentMapPath(namedMapId?: string) {
  const store = useMemo(() => createCurrentMapStore(), []);
  const tree = useProjectTree(WHOLE_TREE);
  const [chosen, setChosen] = useState<MapPath>();
  const fresh = tree.isFetchedAfterMount;
  const path = useMemo(() => {
    if (!tree.data || !fresh) return undefined;
    if (chosen && pathExists(tree.data, chosen)) return chosen;
    return (namedMapId && pathOfMap(tree.data, namedMapId)) || initialMapPath(tree.data, store.read());
  }, [tree.data, fresh, chosen, store, namedMapId]);
  useEffect(() => {
    if (path) store.remember(path);
  }, [path, store]);
  const options = useMemo(() => mapPathOptions(tree.data), [tree.data]);
  /** A map picker's change: only a whole project > building > map path is a choice. */
  const choose = (value: unknown) => {
    if (Array.isArray(value) && value.length === 3) setChosen(value.map(String) as MapPath);
  };
  return { tree, fresh, path, options, choose };
}
