import { keepPreviousData } from '@tanstack/react-query';
import type {
  SceneExportBody,
  SceneFields,
  SceneListBody,
  SceneRunsBody,
  SceneSettings,
  SceneUpdateBody,
  SceneWeekBody,
} from '@lumigrid/contract/browser';
import { sceneEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { downloadFile } from '../../api/download.ts';
import { uploadForm } from '../../api/upload.ts';
import { automationKeys } from '../automation/api.ts';
import { gatewayKeys } from '../gateways/api.ts';

/** How often the scene list and a scene's detail are looked at again while shown (parts sync, runs arrive). */
export const SCENES_POLL_MS = 15_000;

/** One key factory for everything under scenes; every change invalidates `all`. */
export const sceneKeys = {
  all: ['scenes'] as const,
  page: (body: SceneListBody) => [...sceneKeys.all, 'page', body] as const,
  detail: (sceneId: string) => [...sceneKeys.all, 'detail', sceneId] as const,
  runs: (body: SceneRunsBody) => [...sceneKeys.all, 'runs', body] as const,
  week: (body: SceneWeekBody) => [...sceneKeys.all, 'week', body] as const,
  settings: (projectId: string) => [...sceneKeys.all, 'settings', projectId] as const,
};

/** The scene calls of spec section 7 "Scenes"; paths and answers are the contract's. */
export const sceneApi = {
  page: (body: SceneListBody, signal?: AbortSignal) => call(sceneEndpoints.page, { body }, { signal }),
  get: (sceneId: string, signal?: AbortSignal) => call(sceneEndpoints.get, { params: { id: sceneId } }, { signal }),
  add: (body: SceneFields) => call(sceneEndpoints.add, { body }),
  update: (body: SceneUpdateBody) => call(sceneEndpoints.update, { body }),
  remove: (sceneId: string) => call(sceneEndpoints.remove, { params: { id: sceneId } }),
  /** Silent: the run's answer (or refusal) is shown in the run dialog, gateway by gateway. */
  execute: (sceneId: string) => call(sceneEndpoints.execute, { params: { id: sceneId }, body: null }, { silent: true }),
  runs: (body: SceneRunsBody, signal?: AbortSignal) => call(sceneEndpoints.runs, { body }, { signal }),
  week: (body: SceneWeekBody, signal?: AbortSignal) => call(sceneEndpoints.week, { body }, { signal }),
  settings: (projectId: string, signal?: AbortSignal) => call(sceneEndpoints.settings, { params: { projectId } }, { signal }),
  saveSettings: (body: SceneSettings) => call(sceneEndpoints.saveSettings, { body }),
  /** Sets a saved scene's picture: the scene's id before the file, as the server reads the stream in order. */
  uploadImage: (sceneId: string, file: File) => call(sceneEndpoints.uploadImage, { body: uploadForm(file, { id: sceneId }) }),
  removeImage: (sceneId: string) => call(sceneEndpoints.removeImage, { params: { id: sceneId }, body: null }),
  /** Saves the list as the server writes it (headers in the caller's language). */
  export: (body: SceneExportBody, fallbackName: string) => downloadFile(sceneEndpoints.export, { body }, fallbackName),
};

export const useScenePage = (body: SceneListBody | undefined) =>
  useApiQuery(sceneKeys.page, sceneApi.page, body?.projectId ? body : undefined, {
    placeholderData: keepPreviousData,
    refetchInterval: SCENES_POLL_MS,
  });

export const useScene = (sceneId: string | undefined) => useApiQuery(sceneKeys.detail, sceneApi.get, sceneId || undefined);

export const useSceneRuns = (body: SceneRunsBody | undefined) =>
  useApiQuery(sceneKeys.runs, sceneApi.runs, body?.id ? body : undefined, {
    placeholderData: keepPreviousData,
    refetchInterval: SCENES_POLL_MS,
  });

export const useSceneWeek = (body: SceneWeekBody | undefined) =>
  useApiQuery(sceneKeys.week, sceneApi.week, body?.projectId ? body : undefined, { placeholderData: keepPreviousData });

export const useSceneSettings = (projectId: string | undefined) =>
  useApiQuery(sceneKeys.settings, sceneApi.settings, projectId || undefined);

/**
 * A scene change: afterwards the scenes and the sync banner are read again, since a change raises the
 * configuration version of every gateway the scene touches.
 */
const useSceneChange = <A, R>(mutationFn: (arg: A) => Promise<R>) =>
  // The scenes panel keys may run (automation), and the keys a deleted scene frees.
  useRefreshingMutation(mutationFn, [sceneKeys.all, gatewayKeys.syncStatus(), automationKeys.all]);

export const useAddScene = () => useSceneChange(sceneApi.add);
export const useUpdateScene = () => useSceneChange(sceneApi.update);
export const useDeleteScene = () => useSceneChange(sceneApi.remove);
export const useSaveSceneSettings = () => useSceneChange(sceneApi.saveSettings);

/** Sets (a file) or removes (null) a saved scene's picture; the list and detail show the new one. */
export const useScenePicture = () =>
  useRefreshingMutation(
    ({ sceneId, file }: { sceneId: string; file: File | null }) =>
      file ? sceneApi.uploadImage(sceneId, file) : sceneApi.removeImage(sceneId),
    [sceneKeys.all],
  );

/** A run changes nothing in the scene itself, but its latest run and history. */
export const useRunScene = () => useRefreshingMutation(sceneApi.execute, [sceneKeys.all]);
