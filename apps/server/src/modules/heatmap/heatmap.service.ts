import {
  DEFAULT_HEAT_LEVELS,
  HEATMAP_LIMITS,
  HEATMAP_WINDOW_MINUTES,
  heatLevelsProblem,
  percentOfMax,
  sortedHeatLevels,
  type HeatRow,
  type HeatmapDownloadBody,
  type HeatmapGen,
  type HeatmapGenBody,
  type HeatmapPage,
  type HeatmapPageBody,
  type HeatmapResetBody,
  type HeatmapSettings,
  type HeatmapSettingsBody,
} from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { DAY_MS, parseLocalDate } from '../../lib/local-date.ts';
import { paging } from '../../lib/paging.ts';
import { denyAccess, toId } from '../access/access.ts';
import { requireStatsPlace, type ProjectAccess } from '../projects/project-access.ts';
import type { HeatPlace, HeatmapRepo, LocalRange, SensorCountRow } from './heatmap.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'scope'>;

function rangeOf(body: { from: string; to: string }): LocalRange {
  const from = parseLocalDate(body.from, 'from');
  const to = parseLocalDate(body.to, 'to');
  if (to < from) throw new AppError(100001, 'to');
  if ((to - from) / DAY_MS >= HEATMAP_LIMITS.rangeDays.max) throw new AppError(100001, `to: at most ${HEATMAP_LIMITS.rangeDays.max} days`);
  return { from: body.from, to: body.to };
}

const rowOf = (row: SensorCountRow, maxCount: number): HeatRow => ({ ...row, percent: percentOfMax(row.count, maxCount) });

/**
 * The sensor heatmap of spec sections 3, 5 and 7: activation counts per motion sensor over local days, as
 * percentages of the most active one, a week-by-hour grid, and each project's colour levels.
 */
export function createHeatmapService(deps: {
  repo: HeatmapRepo;
  access: Pick<ProjectAccess, 'requireProject' | 'requireBuilding' | 'requireMap'>;
}) {
  const { repo, access } = deps;

  async function settingsOf(auth: Caller, projectId: bigint): Promise<HeatmapSettings> {
    const stored = await repo.settings({ tenantId: auth.tenantId, projectId });
    return {
      projectId: String(projectId),
      levels: stored ? sortedHeatLevels(stored.levels) : [...DEFAULT_HEAT_LEVELS],
      isDefault: !stored,
      updatedAt: stored ? stored.updatedAt.toISOString() : null,
    };
  }

  return {
    async gen(auth: Caller, body: HeatmapGenBody): Promise<HeatmapGen> {
      const range = rangeOf(body);
      const map = await access.requireMap(auth, body.mapId);
      const place: HeatPlace = { tenantId: auth.tenantId, projectId: map.projectId, mapId: map.id };
      const sensorId = body.sensorId === undefined ? undefined : toId(body.sensorId);
      if (sensorId !== undefined && !(await repo.deviceOnMap({ tenantId: auth.tenantId, mapId: map.id, deviceId: sensorId }))) denyAccess();
      const [rows, cells, settings] = await Promise.all([
        repo.sensorRows(place, range),
        repo.week(place, range, sensorId),
        settingsOf(auth, map.projectId),
      ]);
      // A light or panel has no heat of its own: an all-zero grid would say nobody passed by.
      if (sensorId !== undefined && !rows.some((r) => r.deviceId === String(sensorId))) throw new AppError(100209, 'sensorId');
      const maxCount = rows.reduce((max, r) => Math.max(max, r.count), 0);
      const week = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
      for (const cell of cells) week[cell.weekday - 1]![cell.hour] = cell.count;
      return {
        mapId: String(map.id),
        projectId: String(map.projectId),
        windowMinutes: HEATMAP_WINDOW_MINUTES,
        maxCount,
        totalCount: rows.reduce((sum, r) => sum + r.count, 0),
        sensors: rows.flatMap((r) =>
          r.x === null || r.y === null
            ? []
            : [{ id: r.deviceId, name: r.name, x: r.x, y: r.y, count: r.count, percent: percentOfMax(r.count, maxCount) }],
        ),
        week,
        levels: settings.levels,
      };
    },

    async page(auth: Caller, body: HeatmapPageBody): Promise<HeatmapPage> {
      const range = rangeOf(body);
      const { place } = await requireStatsPlace(access, auth, body);
      const [{ total, maxCount }, rows] = await Promise.all([repo.sensorTotals(place, range), repo.sensorRows(place, range, paging(body))]);
      return { total, maxCount, list: rows.map((r) => rowOf(r, maxCount)) };
    },

    /** Every row of the place, most active first (a place holds hundreds of sensors at most: one read). */
    async download(auth: Caller, body: HeatmapDownloadBody): Promise<HeatRow[]> {
      const range = rangeOf(body);
      const { place } = await requireStatsPlace(access, auth, body);
      const rows = await repo.sensorRows(place, range);
      const maxCount = rows[0]?.count ?? 0;
      return rows.map((r) => rowOf(r, maxCount));
    },

    async settings(auth: Caller, projectId: string): Promise<HeatmapSettings> {
      const project = await access.requireProject(auth, projectId);
      return settingsOf(auth, project.id);
    },

    async saveSettings(auth: Caller, body: HeatmapSettingsBody): Promise<HeatmapSettings> {
      const project = await access.requireProject(auth, body.projectId);
      const problem = heatLevelsProblem(body.levels);
      if (problem) throw new AppError(problem);
      const levels = sortedHeatLevels(body.levels).map((l) => ({ percent: l.percent, color: l.color.toLowerCase() }));
      await repo.saveSettings({ tenantId: auth.tenantId, projectId: project.id, levels });
      return settingsOf(auth, project.id);
    },

    /** Back to the defaults; the counts stay. */
    async resetSettings(auth: Caller, body: HeatmapResetBody): Promise<HeatmapSettings> {
      const project = await access.requireProject(auth, body.projectId);
      await repo.deleteSettings({ tenantId: auth.tenantId, projectId: project.id });
      return settingsOf(auth, project.id);
    },
  };
}
export type HeatmapService = ReturnType<typeof createHeatmapService>;
