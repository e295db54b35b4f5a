import { alertEndpoints as E, mapEndpoints } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { requestLang } from '../../http/envelope.ts';
import { sendTable } from '../../lib/excel.ts';
import type { DevicesService } from '../devices/devices.service.ts';
import type { AlertsService } from './alerts.service.ts';
import type { DeviceStatusService } from './device-status.service.ts';
import { alertColumns, deviceColumns, reportName } from './status-reports.ts';

/** The status and fault calls of the endpoint table (contract endpoints/alerts.ts) and a map's devices report. */
export function registerAlertRoutes(
  route: RouteOf,
  deps: { alerts: AlertsService; status: DeviceStatusService; devices: Pick<DevicesService, 'report'> },
) {
  const { alerts, status, devices } = deps;

  route(E.page, ({ auth, body }) => alerts.page(auth, body));

  route(E.statistics, ({ auth, body }) => alerts.statistics(auth, body));

  route(E.handle, ({ auth, body }) => alerts.handle(auth, body));

  route(E.remove, ({ auth, body }) => alerts.remove(auth, body));

  route(E.deviceState, ({ auth, body }) => status.deviceState(auth, body));

  route(E.deviceStatus, ({ auth, body }) => status.page(auth, body));

  route(E.projectStatus, ({ auth, params }) => status.project(auth, params.id));

  route(E.buildingStatus, ({ auth, params }) => status.building(auth, params.id, params.buildId));

  route(E.mapStatus, ({ auth, params }) => status.map(auth, params.id, params.mapId));

  route(E.failReport, async ({ auth, body, request, reply }) => {
    const lang = requestLang(request);
    const batches = await alerts.report(auth, body);
    return sendTable(reply, { ...reportName('failSheet', lang), columns: alertColumns(lang) }, batches);
  });

  route(E.statusReport, async ({ auth, body, request, reply }) => {
    const lang = requestLang(request);
    const rows = await devices.report(auth, body);
    return sendTable(reply, { ...reportName('statusSheet', lang), columns: deviceColumns(lang) }, [rows]);
  });

  route(mapEndpoints.devicesReport, async ({ auth, body, request, reply }) => {
    const lang = requestLang(request);
    const rows = await devices.report(auth, { mapId: body.mapId });
    const name = rows[0]?.mapName ?? '';
    return sendTable(reply, { ...reportName('mapSheet', lang, name), columns: deviceColumns(lang) }, [rows]);
  });
}
