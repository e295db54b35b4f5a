import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sceneEndpoints, type InputSceneBody, type PanelKeys, type SensorLinkage } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { gatewayKeys } from '../gateways/api.ts';

/**
 * What drives devices besides a person: sensor linkages, scene panel keys and the hand-back from manual
 * override. The calls live in the contract's scene table; they are here, apart from the scene screens, because
 * the floor plan's device panel and the group page use them and the scene feature already sits above devices.
 */
export const automationKeys = {
  all: ['automation'] as const,
  linkages: (mapId: string) => [...automationKeys.all, 'linkages', mapId] as const,
  manuals: (projectId: string) => [...automationKeys.all, 'manuals', projectId] as const,
  panelKeys: (panelId: string) => [...automationKeys.all, 'panelKeys', panelId] as const,
};

/** The plain calls; paths and answers are the contract's. */
export const automationApi = {
  linkages: (mapId: string, signal?: AbortSignal) => call(sceneEndpoints.linkages, { params: { mapId } }, { signal }),
  saveLinkage: (body: SensorLinkage) => call(sceneEndpoints.saveLinkage, { body }),
  removeLinkage: (sensorId: string) => call(sceneEndpoints.removeLinkage, { params: { id: sensorId }, body: null }),
  manuals: (projectId: string, signal?: AbortSignal) => call(sceneEndpoints.manuals, { params: { id: projectId } }, { signal }),
  panelKeys: (panelId: string, signal?: AbortSignal) => call(sceneEndpoints.panelKeys, { params: { id: panelId } }, { signal }),
  /** Silent: the panel shows a refusal next to the key it concerns. */
  bindPanelKey: (body: InputSceneBody) => call(sceneEndpoints.inputScene, { body }, { silent: true }),
  executeAuto: (deviceIds: string[]) => call(sceneEndpoints.executeAuto, { body: { deviceIds } }),
};

export const useLinkages = (mapId: string | undefined) => useApiQuery(automationKeys.linkages, automationApi.linkages, mapId || undefined);

export const useManualScenes = (projectId: string | undefined) =>
  useApiQuery(automationKeys.manuals, automationApi.manuals, projectId || undefined);

export const usePanelKeys = (panelId: string | undefined) =>
  useApiQuery(automationKeys.panelKeys, automationApi.panelKeys, panelId || undefined);

/** Linkages and panel keys travel with the gateway's configuration: a change raises its version (the sync banner). */
const useConfigChange = <A, R>(mutationFn: (arg: A) => Promise<R>, onSuccess?: (answer: R, arg: A) => void) =>
  useRefreshingMutation(mutationFn, [automationKeys.all, gatewayKeys.syncStatus()], onSuccess);

export const useSaveLinkage = () => useConfigChange(automationApi.saveLinkage);
export const useRemoveLinkage = () => useConfigChange(automationApi.removeLinkage);

/** Binds or frees one key; the answer is the panel's keys as they are now. */
export function useBindPanelKey() {
  const client = useQueryClient();
  return useConfigChange(automationApi.bindPanelKey, (keys: PanelKeys, body) =>
    client.setQueryData(automationKeys.panelKeys(body.panelId), keys),
  );
}

/** Changes nothing in the cloud: the devices' next reports do. */
export function useExecuteAuto() {
  return useMutation({ mutationFn: automationApi.executeAuto });
}
