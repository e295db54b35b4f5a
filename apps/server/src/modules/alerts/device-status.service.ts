import {
  DISPLAY_STATES,
  type BuildingStatus,
  type Device,
  type DeviceListBody,
  type DevicePage,
  type DeviceStateBody,
  type DeviceStateSummary,
  type DisplayState,
  type MapStatus,
  type ProjectStatus,
  type StatusNode,
} from '@lumigrid/contract';
import type { AuthContext } from '../../http/auth.ts';
import { groupBy } from '../../lib/group-by.ts';
import type { DevicesService } from '../devices/devices.service.ts';
import type { GatewaysService } from '../gateways/gateways.service.ts';
import { denyAccess, toId, visibleMapIds } from '../access/access.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import type { AlertsRepo } from './alerts.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope' | 'userId' | 'lang'>;
type Counts = Pick<StatusNode, 'devices' | 'failure' | 'offline' | 'openAlerts'>;

const NONE: Counts = { devices: 0, failure: 0, offline: 0, openAlerts: 0 };

function add(a: Counts, b: Counts): Counts {
  return {
    devices: a.devices + b.devices,
    failure: a.failure + b.failure,
    offline: a.offline + b.offline,
    openAlerts: a.openAlerts + b.openAlerts,
  };
}

function countDevices(devices: readonly Device[]): Counts {
  return {
    devices: devices.length,
    failure: devices.filter((d) => d.display === 'failure').length,
    offline: devices.filter((d) => d.display === 'offline').length,
    openAlerts: 0,
  };
}

/**
 * How devices stand now (spec section 7 "Status and faults": device_state, page_device_status and the
 * status tree of projects, buildings and maps): counts worked out from the devices' reported state, the
 * gateways' presence and the alerts whose fault lasts.
 */
export function createDeviceStatusService(deps: {
  devices: Pick<DevicesService, 'matching' | 'list'>;
  gateways: Pick<GatewaysService, 'list' | 'detail' | 'ofMap'>;
  projects: Pick<ProjectsService, 'tree'>;
  repo: Pick<AlertsRepo, 'openByMap' | 'openByGateway'>;
}) {
  /** Counts per map of what is placed on it, and of every device per gateway. */
  async function countsByPlace(auth: Caller) {
    const alertsOf = { tenantId: auth.tenantId, mapIds: visibleMapIds(auth) };
    const [devices, open, openOfGateway] = await Promise.all([
      deps.devices.matching(auth, {}),
      deps.repo.openByMap(alertsOf),
      deps.repo.openByGateway(alertsOf),
    ]);
    const byMap = groupBy(
      devices.filter((d) => d.mapId !== null),
      (d) => d.mapId!,
    );
    const byGateway = groupBy(devices, (d) => d.gatewayId);
    return {
      map: (id: string): Counts => ({ ...countDevices(byMap.get(id) ?? []), openAlerts: open.get(toId(id)) ?? 0 }),
      gateway: (id: string): Counts => ({ ...countDevices(byGateway.get(id) ?? []), openAlerts: openOfGateway.get(toId(id)) ?? 0 }),
    };
  }

  /**
   * A project's tree with every node counted as the lists filter by it: a map its devices, a building its own
   * maps, a project all its buildings (not its sub-projects), the account everything.
   */
  async function countedTree(auth: Caller, projectId: string) {
    const [tree, counts] = await Promise.all([deps.projects.tree(auth, projectId), countsByPlace(auth)]);
    const buildTotals = new Map<string, Counts>();
    const projectTotals = new Map<string, Counts>();
    for (const project of tree.projects) {
      for (const build of project.builds) buildTotals.set(build.id, build.maps.map((m) => counts.map(m.id)).reduce(add, NONE));
      projectTotals.set(project.id, project.builds.map((b) => buildTotals.get(b.id)!).reduce(add, NONE));
    }
    const all = [...projectTotals.values()].reduce(add, NONE);
    return { tree, counts, all, buildTotals, projectTotals };
  }

  const node = (item: { id: string; name: string; parentId: string | null }, counts: Counts): StatusNode => ({
    id: item.id,
    name: item.name,
    parentId: item.parentId,
    ...counts,
  });

  return {
    /** POST status/v1/page_device_status: the device list's rows, with the fault filter. */
    page: (auth: Caller, body: DeviceListBody): Promise<DevicePage> => deps.devices.list(auth, body),

    /** POST status/v1/device_state */
    async deviceState(auth: Caller, body: DeviceStateBody): Promise<DeviceStateSummary> {
      const devices = await deps.devices.matching(auth, body);
      const display = Object.fromEntries(DISPLAY_STATES.map((d) => [d, 0])) as Record<DisplayState, number>;
      const faults = new Map<number, number>();
      for (const d of devices) {
        display[d.display] += 1;
        if (d.fault) faults.set(d.fault, (faults.get(d.fault) ?? 0) + 1);
      }
      const gateways = body.gatewayId
        ? await deps.gateways.detail(auth, body.gatewayId).then((g) => ({ online: Number(g.online), offline: Number(!g.online) }))
        : {
            online: (await deps.gateways.list(auth, { ...placeOf(body), online: true, pageSize: 1 })).total,
            offline: (await deps.gateways.list(auth, { ...placeOf(body), online: false, pageSize: 1 })).total,
          };
      const open = await deps.repo.openByMap({
        tenantId: auth.tenantId,
        mapIds: visibleMapIds(auth),
        ...placeFilter(body),
      });
      return {
        total: devices.length,
        display,
        byFault: [...faults].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code - b.code),
        gateways,
        openAlerts: [...open.values()].reduce((a, b) => a + b, 0),
      };
    },

    /** GET status/v1/projects/{id}: 0 for the whole account. */
    async project(auth: Caller, id: string): Promise<ProjectStatus> {
      const { tree, all, buildTotals, projectTotals } = await countedTree(auth, id);
      if (/^0+$/.test(id)) {
        return {
          project: { id: '0', name: '', parentId: null, ...all },
          children: tree.projects.filter((p) => p.parentId === null).map((p) => node(p, projectTotals.get(p.id)!)),
          builds: [],
        };
      }
      const project = tree.projects.find((p) => p.id === String(toId(id)));
      if (!project) denyAccess();
      return {
        project: node(project, projectTotals.get(project.id)!),
        children: tree.projects.filter((p) => p.parentId === project.id).map((p) => node(p, projectTotals.get(p.id)!)),
        builds: project.builds.map((b) => node(b, buildTotals.get(b.id)!)),
      };
    },

    /** GET status/v1/{id}/builds/{buildId} */
    async building(auth: Caller, projectId: string, buildId: string): Promise<BuildingStatus> {
      const { tree, counts, buildTotals } = await countedTree(auth, projectId);
      const build = tree.projects.find((p) => p.id === String(toId(projectId)))?.builds.find((b) => b.id === String(toId(buildId)));
      if (!build) denyAccess();
      return {
        build: node(build, buildTotals.get(build.id)!),
        maps: build.maps.map((m) => node({ ...m, parentId: null }, counts.map(m.id))),
      };
    },

    /** GET status/v1/{id}/maps/{mapId} */
    async map(auth: Caller, projectId: string, mapId: string): Promise<MapStatus> {
      const { tree, counts } = await countedTree(auth, projectId);
      const map = tree.projects
        .find((p) => p.id === String(toId(projectId)))
        ?.builds.flatMap((b) => b.maps)
        .find((m) => m.id === String(toId(mapId)));
      if (!map) denyAccess();
      const gateways = await deps.gateways.ofMap(auth, map.buildId, map.id);
      return {
        map: node({ ...map, parentId: null }, counts.map(map.id)),
        gateways: gateways.map((g) => ({
          ...node({ id: g.id, name: g.name, parentId: null }, counts.gateway(g.id)),
          mac: g.mac,
          online: g.online,
        })),
      };
    },
  };
}

/** The place of a status filter as the gateway list takes it. */
function placeOf(body: DeviceStateBody) {
  return {
    ...(body.projectId === undefined ? {} : { projectId: body.projectId }),
    ...(body.buildId === undefined ? {} : { buildId: body.buildId }),
    ...(body.mapId === undefined ? {} : { mapId: body.mapId }),
  };
}

function placeFilter(body: DeviceStateBody) {
  return {
    ...(body.projectId === undefined ? {} : { projectId: toId(body.projectId) }),
    ...(body.buildId === undefined ? {} : { buildId: toId(body.buildId) }),
    ...(body.mapId === undefined ? {} : { mapId: toId(body.mapId) }),
    ...(body.gatewayId === undefined ? {} : { gatewayId: toId(body.gatewayId) }),
  };
}

export type DeviceStatusService = ReturnType<typeof createDeviceStatusService>;
