import type { DeviceListBody, DeviceReportBody, DeviceStateBody, DisplayState } from '@lumigrid/contract/browser';

/** The device list's search form as ProTable hands it over (selects as strings, the place as a cascader path). */
export interface DeviceSearchForm {
  keyword?: string;
  type?: string;
  display?: DisplayState;
  fault?: string;
  gatewayId?: string;
  place?: string[];
  groupId?: string;
}

/** The place filter: a project, a building or a map, whichever was chosen last. */
export function placeQuery(path: string[] | undefined): Pick<DeviceListBody, 'projectId' | 'buildId' | 'mapId'> {
  if (!path?.length) return {};
  if (path.length >= 3) return { mapId: path[2] };
  if (path.length === 2) return { buildId: path[1] };
  return { projectId: path[0] };
}

/** The list call's filters from the search form; blank fields filter nothing. */
export function deviceListFilters(form: DeviceSearchForm): DeviceReportBody {
  const keyword = form.keyword?.trim();
  return {
    ...placeQuery(form.place),
    ...(keyword ? { name: keyword } : {}),
    ...(form.type ? { type: Number(form.type) } : {}),
    ...(form.display ? { display: form.display } : {}),
    ...(form.fault ? { fault: Number(form.fault) } : {}),
    ...(form.gatewayId ? { gatewayId: form.gatewayId } : {}),
    ...(form.groupId ? { groupId: form.groupId } : {}),
  };
}

/** The filters of a page without its paging: what the status report takes. */
export function reportFilters({ page: _page, pageSize: _pageSize, ...filters }: DeviceListBody): DeviceReportBody {
  return filters;
}

/** The place and gateway the status summary counts: device_state takes no type, state, fault, name or group. */
export function stateScope({ projectId, buildId, mapId, gatewayId }: DeviceListBody): DeviceStateBody {
  return {
    ...(projectId ? { projectId } : {}),
    ...(buildId ? { buildId } : {}),
    ...(mapId ? { mapId } : {}),
    ...(gatewayId ? { gatewayId } : {}),
  };
}
