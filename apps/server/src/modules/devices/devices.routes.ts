import { deviceEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { DevicesService } from './devices.service.ts';

/** The device calls of the endpoint table (contract endpoints/devices.ts). */
export function registerDeviceRoutes(route: RouteOf, deps: { devices: DevicesService }) {
  const { devices } = deps;

  route(E.markers, ({ auth, query }) => devices.markers(auth, query.mapId));

  route(E.detail, ({ auth, params }) => devices.detail(auth, params.mapId, params.id));

  route(E.rename, ({ auth, body }) => devices.rename(auth, body));

  route(E.moveIn, ({ auth, body }) => devices.moveIn(auth, body));

  route(E.positions, ({ auth, body }) => devices.positions(auth, body));

  route(E.moveOut, ({ auth, body }) => devices.moveOut(auth, body));

  route(E.identify, ({ auth, body }) => devices.identify(auth, body.id));

  route(E.control, ({ auth, body }) => devices.control(auth, body));

  route(E.list, ({ auth, body }) => devices.list(auth, body));

  route(E.readParams, ({ auth, body }) => devices.readParams(auth, body.id, 'any'));
  route(E.readDaylightParams, ({ auth, body }) => devices.readParams(auth, body.id, 'daylight'));

  route(E.setParams, ({ auth, body }) => devices.setParams(auth, body, 'any'));
  route(E.setMotionParams, ({ auth, body }) => devices.setParams(auth, body, 'motion'));
  route(E.setDaylightParams, ({ auth, body }) => devices.setParams(auth, body, 'daylight'));
  route(E.setStairsMode, ({ auth, body }) => devices.setParams(auth, body, 'stairs'));

  route(E.sensorOnOff, ({ auth, body }) => devices.sensorOnOff(auth, body));

  route(E.broadControl, ({ auth, body }) => devices.broadControl(auth, body));
  route(E.controlMany, ({ auth, body }) => devices.controlMany(auth, body));

  route(E.remove, ({ auth, body }) => devices.remove(auth, body));

  route(E.removeConfirmed, ({ auth, params }) => devices.removeConfirmed(auth, params.gatewayId, params.id));

  route(E.batchType, ({ auth, body }) => devices.batchType(auth, body));

  route(E.refreshNetwork, ({ auth, body }) => devices.refreshNetwork(auth, body.id));

  route(E.inputStatus, ({ auth, params }) => devices.inputStatus(auth, params.id));

  route(E.temperatures, ({ auth, params }) => devices.temperatures(auth, params));

  route(E.panelLockAccounts, ({ auth, body }) => devices.panelLockAccounts(auth, body.id));
}
