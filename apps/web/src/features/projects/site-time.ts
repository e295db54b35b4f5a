import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANG, isLang, type Lang, type ProjectTree } from '@lumigrid/contract/browser';
import { EMPTY_TIME, browserZone, formatTime, type TimeInput, type TimePrecision } from '../../i18n/time-format.ts';
import { useProjectTree, WHOLE_TREE } from './api.ts';

/** The site a screen's times belong to: its project, or a map of it. */
export interface SiteRef {
  projectId?: string | null;
  mapId?: string | null;
}

/** The zone of a site as the account's tree knows it (the server's rule: most of its gateways' zone, else UTC). */
export function siteZone(tree: ProjectTree | undefined, site: SiteRef): string | undefined {
  if (!tree) return undefined;
  const projectId = site.projectId ?? projectOfMap(tree, site.mapId);
  return projectId ? tree.projects.find((p) => p.id === projectId)?.timeZone : undefined;
}

function projectOfMap(tree: ProjectTree, mapId: string | null | undefined): string | undefined {
  if (!mapId) return undefined;
  for (const project of tree.projects) {
    for (const build of project.builds) if (build.maps.some((m) => m.id === mapId)) return project.id;
  }
  return undefined;
}

export interface TimeFormatter {
  /** The zone the times are shown in; undefined while it is not known yet (times then show EMPTY_TIME). */
  zone: string | undefined;
  lang: Lang;
  /** An instant as the screen shows it: on the zone's clock, labelled, in the user's language. */
  time(at: TimeInput, precision?: TimePrecision): string;
}

/** The product language of an i18next language code. */
export function currentLangOf(language: string): Lang {
  return isLang(language) ? language : DEFAULT_LANG;
}

/** The user's product language, following the language switch. */
export function useLang(): Lang {
  return currentLangOf(useTranslation().i18n.language);
}

function useFormatter(zone: string | undefined): TimeFormatter {
  const lang = useLang();
  const time = useCallback(
    (at: TimeInput, precision: TimePrecision = 'minute') => (zone ? formatTime(at, { zone, lang, precision }) : EMPTY_TIME),
    [zone, lang],
  );
  return useMemo(() => ({ zone, lang, time }), [zone, lang, time]);
}

/**
 * Times of a site, on the site's wall clock. Until the site is known (undefined, or a ref without ids) the times show
 * EMPTY_TIME rather than another zone's clock. A site that is gone or that the account's tree does not hold (null;
 * a gateway on no map) shows `fallbackZone`, else the browser's zone, named like any other.
 */
export function useSiteTime(site: SiteRef | null | undefined, fallbackZone?: string | null): TimeFormatter {
  const tree = useProjectTree(WHOLE_TREE);
  const lost = fallbackZone || browserZone();
  let zone: string | undefined;
  if (site === null) zone = lost;
  else if (site && (site.projectId || site.mapId)) zone = siteZone(tree.data, site) ?? (tree.data || tree.isError ? lost : undefined);
  return useFormatter(zone);
}

/**
 * Times of many sites on one screen (a list over the account's projects): each row on its own site's clock. A row
 * whose site the tree does not hold shows the browser's zone, named.
 */
export function useSiteTimes(): (site: SiteRef, at: TimeInput, precision?: TimePrecision) => string {
  const tree = useProjectTree(WHOLE_TREE);
  const lang = useLang();
  return useCallback(
    (site: SiteRef, at: TimeInput, precision: TimePrecision = 'minute') => {
      if (!tree.data && !tree.isError) return EMPTY_TIME;
      return formatTime(at, { zone: siteZone(tree.data, site) ?? browserZone(), lang, precision });
    },
    [tree.data, tree.isError, lang],
  );
}

/** Times of no site (the account, the system, the pushed news): the browser's zone, named beside each time. */
export function useAccountTime(): TimeFormatter {
  return useFormatter(browserZone());
}
