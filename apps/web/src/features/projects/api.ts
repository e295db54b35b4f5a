import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BuildingAddBody,
  BuildingDetail,
  BuildingUpdateBody,
  Building,
  MapAddBody,
  MapDevicePage,
  MapDevicesBody,
  MapImage,
  MapInfo,
  MapMoveBody,
  MapSearchBody,
  MapSearchPage,
  MapUpdateBody,
  Project,
  ProjectAddBody,
  ProjectDetail,
  ProjectPage,
  ProjectSearchBody,
  ProjectTree,
  ProjectUpdateBody,
} from '@lumigrid/contract';
import { api } from '../../api/client.ts';

const BASE = '/api4';
const id = (value: string) => encodeURIComponent(value);

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
  page: (body: ProjectSearchBody, signal?: AbortSignal) =>
    api.post<ProjectPage>(`${BASE}/project_user/v1/all_project_message`, body, { signal }),
  detail: (projectId: string, signal?: AbortSignal) =>
    api.get<ProjectDetail>(`${BASE}/project_user/v1/projects/${id(projectId)}`, { signal }),
  tree: (projectId: string, signal?: AbortSignal) => api.get<ProjectTree>(`${BASE}/project_user/v1/${id(projectId)}/sub_links`, { signal }),
  building: (projectId: string, buildId: string, signal?: AbortSignal) =>
    api.get<BuildingDetail>(`${BASE}/project_user/v1/${id(projectId)}/builds/${id(buildId)}`, { signal }),
  map: (projectId: string, mapId: string, signal?: AbortSignal) =>
    api.get<MapInfo>(`${BASE}/project_user/v1/${id(projectId)}/maps/${id(mapId)}`, { signal }),

  addProject: (body: ProjectAddBody) => api.post<Project>(`${BASE}/project/v1/add`, body),
  updateProject: (body: ProjectUpdateBody) => api.post<Project>(`${BASE}/project/v1/update`, body),
  deleteProject: (projectId: string) => api.delete<null>(`${BASE}/project/v1/delete/${id(projectId)}`),

  addBuilding: (body: BuildingAddBody) => api.post<Building>(`${BASE}/build/v1/add`, body),
  updateBuilding: (body: BuildingUpdateBody) => api.post<Building>(`${BASE}/build/v1/update`, body),
  deleteBuilding: (buildId: string) => api.post<null>(`${BASE}/build/v1/delete`, { id: buildId }),

  addMap: (body: MapAddBody) => api.post<MapInfo>(`${BASE}/map/v1/add`, body),
  updateMap: (body: MapUpdateBody) => api.post<MapInfo>(`${BASE}/map/v1/update`, body),
  moveMap: (body: MapMoveBody) => api.put<MapInfo>(`${BASE}/map/v1/move`, body),
  deleteMap: (buildId: string, mapId: string) => api.delete<null>(`${BASE}/map/v1/delete/${id(buildId)}/${id(mapId)}`),
  /** Removes the floor plan; the map stays. */
  removeMapImage: (mapId: string) => api.get<null>(`${BASE}/map/v1/delete_map`, { query: { id: mapId } }),
  /**
   * Uploads a floor plan. With a map id the server attaches it at once; without one the answer's `image`
   * goes into map/v1/add. The id field comes before the file, as the server reads the stream in order.
   */
  uploadMap: (file: File, mapId?: string) => {
    const form = new FormData();
    if (mapId) form.append('id', mapId);
    form.append('file', file, file.name);
    return api.upload<MapImage>(`${BASE}/map/v1/upload_map`, form);
  },
  searchMaps: (body: MapSearchBody, signal?: AbortSignal) => api.post<MapSearchPage>(`${BASE}/map/v1/search`, body, { signal }),
  mapDevices: (body: MapDevicesBody, signal?: AbortSignal) => api.post<MapDevicePage>(`${BASE}/map/v1/list/devices`, body, { signal }),
};

// ---- queries ----

/** The project list screen: searched and paged on the server. */
export function useProjectPage(body: ProjectSearchBody) {
  return useQuery({
    queryKey: projectKeys.page(body),
    queryFn: ({ signal }) => projectApi.page(body, signal),
    placeholderData: keepPreviousData,
  });
}

/** A project with its direct sub-projects and buildings. */
export function useProjectDetail(projectId: string | undefined) {
  return useQuery({
    queryKey: projectKeys.detail(projectId ?? ''),
    queryFn: ({ signal }) => projectApi.detail(projectId ?? '', signal),
    enabled: Boolean(projectId),
  });
}

/** The tree under a project (buildings with their maps), or the whole account's with WHOLE_TREE. */
export function useProjectTree(projectId: string | undefined) {
  return useQuery({
    queryKey: projectKeys.tree(projectId ?? ''),
    queryFn: ({ signal }) => projectApi.tree(projectId ?? '', signal),
    // Undefined waits (a dialog not open yet, a page without its id); WHOLE_TREE asks for everything.
    enabled: Boolean(projectId),
  });
}

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

export function useMapSearch(body: MapSearchBody) {
  return useQuery({
    queryKey: projectKeys.mapSearch(body),
    queryFn: ({ signal }) => projectApi.searchMaps(body, signal),
    placeholderData: keepPreviousData,
  });
}

export function useMapDevices(body: MapDevicesBody | undefined) {
  return useQuery({
    queryKey: projectKeys.mapDevices(body ?? { mapId: '' }),
    queryFn: ({ signal }) => projectApi.mapDevices(body ?? { mapId: '' }, signal),
    enabled: Boolean(body?.mapId),
  });
}

// ---- mutations: every one refreshes the whole projects cache (lists, counts, tree, detail) ----

function useProjectMutation<TVars, TResult>(mutationFn: (vars: TVars) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

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
export const useUploadMap = () => useProjectMutation((vars: { file: File; mapId?: string }) => projectApi.uploadMap(vars.file, vars.mapId));
