import { keepPreviousData } from '@tanstack/react-query';
import type {
  HeatmapDownloadBody,
  HeatmapGenBody,
  HeatmapPageBody,
  HeatmapResetBody,
  HeatmapSettingsBody,
} from '@lumigrid/contract/browser';
import { heatmapEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { downloadFile } from '../../api/download.ts';

/** Activations are counted as sensors report: a heatmap shown a while is read again. */
const HEATMAP_POLL_MS = 60_000;

/** One key factory for the heatmap; a change of colour levels invalidates `all` (gen carries them too). */
export const heatmapKeys = {
  all: ['heatmap'] as const,
  gen: (body: HeatmapGenBody) => [...heatmapKeys.all, 'gen', body] as const,
  page: (body: HeatmapPageBody) => [...heatmapKeys.all, 'page', body] as const,
  settings: (projectId: string) => [...heatmapKeys.all, 'settings', projectId] as const,
};

/** The heatmap calls (spec section 7: induction/v1 under /api6). */
export const heatmapApi = {
  gen: (body: HeatmapGenBody, signal?: AbortSignal) => call(heatmapEndpoints.gen, { body }, { signal }),
  page: (body: HeatmapPageBody, signal?: AbortSignal) => call(heatmapEndpoints.page, { body }, { signal }),
  /** Saves the workbook the server writes (headers in the caller's language). */
  download: (body: HeatmapDownloadBody, fallbackName: string) => downloadFile(heatmapEndpoints.download, { body }, fallbackName),
  settings: (projectId: string, signal?: AbortSignal) => call(heatmapEndpoints.settings, { params: { projectId } }, { signal }),
  saveSettings: (body: HeatmapSettingsBody) => call(heatmapEndpoints.saveSettings, { body }),
  resetSettings: (body: HeatmapResetBody) => call(heatmapEndpoints.resetSettings, { body }),
};

/** The heat of a map over local days; waits for a map (undefined). */
export const useHeatmapGen = (body: HeatmapGenBody | undefined) =>
  useApiQuery(heatmapKeys.gen, heatmapApi.gen, body, { placeholderData: keepPreviousData, refetchInterval: HEATMAP_POLL_MS });

/** A page of the sensors with their activations, most active first. */
export const useHeatmapPage = (body: HeatmapPageBody | undefined) =>
  useApiQuery(heatmapKeys.page, heatmapApi.page, body, { placeholderData: keepPreviousData, refetchInterval: HEATMAP_POLL_MS });

export const useHeatmapSettings = (projectId: string | undefined) =>
  useApiQuery(heatmapKeys.settings, heatmapApi.settings, projectId || undefined);

const useHeatmapChange = <A, R>(mutationFn: (arg: A) => Promise<R>) => useRefreshingMutation(mutationFn, [heatmapKeys.all]);

export const useSaveHeatmapSettings = () => useHeatmapChange(heatmapApi.saveSettings);
export const useResetHeatmapSettings = () => useHeatmapChange(heatmapApi.resetSettings);
