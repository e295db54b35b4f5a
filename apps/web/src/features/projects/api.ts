import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  BuildingAddBody,
  BuildingUpdateBody,
  MapAddBody,
  MapDevicesBody,
  MapMoveBody,
  MapSearchBody,
  MapUpdateBody,
  ProjectAddBody,
  ProjectSearchBody,
  ProjectUpdateBody,
} from '@lumigrid/contract/browser';
import { mapEndpoints, projectEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { downloadFile } from '../../api/download.ts';
import { uploadForm } from '../../api/upload.ts';

/** How often a slow pdf upload is asked whether its first page is drawn. */
const RENDER_POLL_MS = 1_000;

/** The id sub_links takes for "the whole tree of the account". */
export const WHOLE_TREE = '0';

/** One key factory for everything under projects; every change invalidates `all`, the tree is small. */
export const projectKeys = {
  all: ['projects'] as const,
  page: (body: ProjectSearchBody) => [...projectKeys.all, 'page', body] as const,
  detail: (projectId: string) => [...projectKeys.all, 'detail', projectId] as const,
  tree: (projectId: string) => [...projectKeys.all, 'tree', projectId] as const,
  building: (projectId: string, buildId: string) => [...projectKeys.all, 'building', projectId, buildId] as const,
  map: (projectId: string, mapId: string) => [...projectKeys.all, 'map', projectId, mapId] as const,
  mapSearch: (body: MapSearchBody) => [...projectKeys.all, 'mapSearch', body] as const,
  mapDevices: (body: MapDevicesBody) => [...projectKeys.all, 'mapDevices', body] as const,
};

// ---- plain calls (the hooks below wrap them; the e2e helpers and loaders may call them directly) ----

export const projectApi = {
  page: (body: ProjectSearchBody, signal?: AbortSignal) => call(projectEndpoints.searchProjects, { body }, { signal }),
  detail: (projectId: string, signal?: AbortSignal) => call(projectEndpoints.projectDetail, { params: { id: projectId } }, { signal }),
  tree: (projectId: string, signal?: AbortSignal) => call(projectEndpoints.tree, { params: { id: projectId } }, { signal }),
  building: (projectId: string, buildId: string, signal?: AbortSignal) =>
    call(projectEndpoints.buildingDetail, { params: { id: projectId, buildId } }, { signal }),
  map: (projectId: string, mapId: string, signal?: AbortSignal) =>
    call(mapEndpoints.getMap, { params: { id: projectId, mapId } }, { signal }),

  addProject: (body: ProjectAddBody) => call(projectEndpoints.addProject, { body }),
  updateProject: (body: ProjectUpdateBody) => call(projectEndpoints.updateProject, { body }),
  deleteProject: (projectId: string) => call(projectEndpoints.deleteProject, { params: { id: projectId } }),

  addBuilding: (body: BuildingAddBody) => call(projectEndpoints.addBuilding, { body }),
  updateBuilding: (body: BuildingUpdateBody) => call(projectEndpoints.updateBuilding, { body }),
  deleteBuilding: (buildId: string) => call(projectEndpoints.deleteBuilding, { body: { id: buildId } }),

  addMap: (body: MapAddBody) => call(mapEndpoints.addMap, { body }),
  updateMap: (body: MapUpdateBody) => call(mapEndpoints.updateMap, { body }),
  moveMap: (body: MapMoveBody) => call(mapEndpoints.moveMap, { body }),
  deleteMap: (buildId: string, mapId: string) => call(mapEndpoints.deleteMap, { params: { buildId, mapId } }),
  /** Removes the floor plan; the map stays. */
  removeMapImage: (mapId: string) => call(mapEndpoints.removeImage, { query: { id: mapId } }),
  /**
   * Uploads a floor plan. With a map id the server attaches it at once; without one the answer's `image`
   * goes into map/v1/add. The id field comes before the file, as the server reads the stream in order.
   */
  uploadMap: async (file: File, mapId?: string, follow: { onRendering?(): void; everyMs?: number } = {}) => {
    let image = await call(mapEndpoints.upload, { body: uploadForm(file, mapId ? { id: mapId } : {}) });
    // A pdf whose first page takes a while is answered at once; follow it until it is drawn (or refused).
    if (image.state === 'rendering') follow.onRendering?.();
    while (image.state === 'rendering') {
      await new Promise((resolve) => setTimeout(resolve, follow.everyMs ?? RENDER_POLL_MS));
      image = await call(mapEndpoints.uploadState, { params: { file: image.image } });
    }
    return image;
  },
  searchMaps: (body: MapSearchBody, signal?: AbortSignal) => call(mapEndpoints.searchMaps, { body }, { signal }),
  mapDevices: (body: MapDevicesBody, signal?: AbortSignal) => call(mapEndpoints.listDevices, { body }, { signal }),
  /** Saves the devices of a map as the server writes them (headers in the caller's language). */
  devicesReport: (mapId: string, fallbackName: string) => downloadFile(mapEndpoints.devicesReport, { body: { mapId } }, fallbackName),
};

// ---- queries ----

/** The project list screen: searched and paged on the server. */
export const useProjectPage = (body: ProjectSearchBody) =>
  useApiQuery(projectKeys.page, projectApi.page, body, { placeholderData: keepPreviousData });

/** A project with its direct sub-projects and buildings. */
export const useProjectDetail = (projectId: string | undefined) =>
  useApiQuery(projectKeys.detail, projectApi.detail, projectId || undefined);

/** The tree under a project (buildings with their maps), or the whole account's with WHOLE_TREE. */
export const useProjectTree = (projectId: string | undefined) =>
  // Undefined waits (a dialog not open yet, a page without its id); WHOLE_TREE asks for everything.
  useApiQuery(projectKeys.tree, projectApi.tree, projectId || undefined);

export function useBuildingDetail(projectId: string | undefined, buildId: string | undefined) {
  return useQuery({
    queryKey: projectKeys.building(projectId ?? '', buildId ?? ''),
    queryFn: ({ signal }) => projectApi.building(projectId ?? '', buildId ?? '', signal),
    enabled: Boolean(projectId && buildId),
  });
}

export function useMapInfo(projectId: string | undefined, mapId: string | undefined) {
  return useQuery({
    queryKey: projectKeys.map(projectId ?? '', mapId ?? ''),
    queryFn: ({ signal }) => projectApi.map(projectId ?? '', mapId ?? '', signal),
    enabled: Boolean(projectId && mapId),
  });
}

export const useMapSearch = (body: MapSearchBody) =>
  useApiQuery(projectKeys.mapSearch, projectApi.searchMaps, body, { placeholderData: keepPreviousData });

export const useMapDevices = (body: MapDevicesBody | undefined) =>
  useApiQuery(projectKeys.mapDevices, projectApi.mapDevices, body?.mapId ? body : undefined);

// ---- mutations: every one refreshes the whole projects cache (lists, counts, tree, detail) ----

const useProjectMutation = <TVars, TResult>(mutationFn: (vars: TVars) => Promise<TResult>) =>
  useRefreshingMutation(mutationFn, [projectKeys.all]);

export const useAddProject = () => useProjectMutation(projectApi.addProject);
export const useUpdateProject = () => useProjectMutation(projectApi.updateProject);
export const useDeleteProject = () => useProjectMutation(projectApi.deleteProject);

export const useAddBuilding = () => useProjectMutation(projectApi.addBuilding);
export const useUpdateBuilding = () => useProjectMutation(projectApi.updateBuilding);
export const useDeleteBuilding = () => useProjectMutation(projectApi.deleteBuilding);

export const useAddMap = () => useProjectMutation(projectApi.addMap);
export const useUpdateMap = () => useProjectMutation(projectApi.updateMap);
export const useMoveMap = () => useProjectMutation(projectApi.moveMap);
export const useDeleteMap = () =>
  useProjectMutation((vars: { buildId: string; mapId: string }) => projectApi.deleteMap(vars.buildId, vars.mapId));
export const useRemoveMapImage = () => useProjectMutation(projectApi.removeMapImage);
/** Uploads a floor plan; `rendering` is true while a slow pdf's first page is being drawn on the server. */
export function useUploadMap() {
  const [rendering, setRendering] = useState(false);
  const mutation = useProjectMutation((vars: { file: File; mapId?: string }) =>
    projectApi.uploadMap(vars.file, vars.mapId, { onRendering: () => setRendering(true) }).finally(() => setRendering(false)),
  );
  return { ...mutation, rendering };
}
