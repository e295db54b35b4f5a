import dayjs from 'dayjs';
import { isCalendarDay } from '../../i18n/time-format.ts';
import type { AlertListBody, AlertReportBody, AlertState, ProjectTree } from '@lumigrid/contract/browser';

/** The fault list's search form as ProTable hands it over (selects as strings, the date range as days). */
export interface AlertSearchForm {
  code?: string | number;
  state?: AlertState;
  /** 'open' for faults that last, 'cleared' for those that ended. */
  open?: 'open' | 'cleared';
  raisedAt?: [string, string];
}

export type AlertFilters = Omit<AlertListBody, 'projectId' | 'page' | 'pageSize' | 'after'>;

/**
 * The page call's filters from the search form. The raised-at days are whole local days: from the start of the
 * first to the last moment of the second, sent as instants so the server compares them with `raisedAt`.
 */
export function alertFilters(form: AlertSearchForm): AlertFilters {
  const code = form.code === undefined || form.code === '' ? undefined : Number(form.code);
  const [fromDay, toDay] = form.raisedAt ?? [];
  return {
    ...(code !== undefined && Number.isInteger(code) ? { code } : {}),
    ...(form.state ? { state: form.state } : {}),
    ...(form.open ? { open: form.open === 'open' } : {}),
    ...(fromDay ? { from: dayjs(fromDay).startOf('day').toISOString() } : {}),
    ...(toDay ? { to: dayjs(toDay).endOf('day').toISOString() } : {}),
  };
}

/** A page's filters without its paging: what the failure report takes. */
export function alertReportFilters({ page: _page, pageSize: _pageSize, after: _after, ...filters }: AlertListBody): AlertReportBody {
  return filters;
}

/**
 * What the fault list opens filtered by when another screen links to it (the statistics' drill-down): the
 * project, a building or a map of it, a fault code and whole local days (YYYY-MM-DD).
 */
export interface AlertListLink {
  projectId?: string;
  buildId?: string;
  mapId?: string;
  code?: number;
  from?: string;
  to?: string;
}

const LINK_KEYS = ['projectId', 'buildId', 'mapId', 'code', 'from', 'to'] as const;
const ID = /^[0-9]{1,19}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** /alert/list with the filters as query parameters. */
export function alertListHref(link: AlertListLink): string {
  const params = new URLSearchParams();
  for (const key of LINK_KEYS) if (link[key] !== undefined) params.set(key, String(link[key]));
  const query = params.toString();
  return query ? `/alert/list?${query}` : '/alert/list';
}

/** The filters of a link to the fault list; anything malformed is left out rather than sent. */
export function alertListLinkOf(params: URLSearchParams): AlertListLink {
  const id = (key: 'projectId' | 'buildId' | 'mapId') => {
    const value = params.get(key);
    return value && ID.test(value) ? { [key]: value } : {};
  };
  const day = (key: 'from' | 'to') => {
    const value = params.get(key);
    return value && DAY.test(value) && isCalendarDay(value) ? { [key]: value } : {};
  };
  const code = Number(params.get('code') ?? NaN);
  return {
    ...id('projectId'),
    ...id('buildId'),
    ...id('mapId'),
    ...(Number.isInteger(code) && code >= 1 && code <= 9 ? { code } : {}),
    ...day('from'),
    ...day('to'),
  };
}

/** A building or map the list is narrowed to: no field of the search form, so searching again keeps it. */
export interface AlertPlace {
  buildId?: string;
  mapId?: string;
}

export function placeOf({ buildId, mapId }: AlertPlace): AlertPlace {
  return { ...(buildId ? { buildId } : {}), ...(mapId ? { mapId } : {}) };
}

/** "Building / Map" (or the building) of a place, from the project tree; undefined when it holds neither. */
export function placeName(tree: ProjectTree | undefined, place: AlertPlace): string | undefined {
  for (const project of tree?.projects ?? []) {
    for (const build of project.builds) {
      const map = place.mapId ? build.maps.find((m) => m.id === place.mapId) : undefined;
      if (map) return `${build.name} / ${map.name}`;
      if (!place.mapId && place.buildId === build.id) return build.name;
    }
  }
  return undefined;
}

/** The search form a link fills in (the place is no field of it: the page keeps it apart). */
export function searchFormOfLink(link: AlertListLink): AlertSearchForm {
  const from = link.from ?? link.to;
  const to = link.to ?? link.from;
  return {
    ...(link.code !== undefined ? { code: String(link.code) } : {}),
    ...(from && to ? { raisedAt: [from, to] as [string, string] } : {}),
  };
}
